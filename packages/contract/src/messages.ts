/**
 * Canonical (English) texts of every rule message. Rule functions return keys; the server
 * answers with these texts and the web app shows the same key through its i18n catalogue.
 */
export const ruleMessages = {
  usernameRequired: 'Username is required',
  usernameFormat: 'Username must be 3-16 characters, letters, numbers, or underscores',
  emailRequired: 'Email is required',
  emailInvalid: 'Email is invalid',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 8 characters',
  passwordTooLong: 'Password must be at most 256 characters',
  confirmRequired: 'Please confirm your password',
  passwordsMismatch: 'Passwords do not match',
  oldPasswordRequired: 'Old password is required',
  newPasswordMismatch: 'New passwords do not match.',
  nameRequired: 'Name is required',
  codeRequired: 'Code is required',
  priceInvalid: 'Price must be > 0',
  stockInvalid: 'Stock must be ≥ 0',
  rentTimeInvalid: 'Rent time must be ≥ 0',
  priceTooHigh: 'Price must be at most 1,000,000',
  stockTooHigh: 'Stock must be at most 1,000,000',
  rentTimeTooHigh: 'Rent time must be at most 525,600 minutes (one year)',
  gatewayInvalid: 'Please enter all fields correctly',
  invalidEmail: 'Invalid email',
  invalidRoles: 'Invalid role(s)',
} as const;

export type RuleMessageKey = keyof typeof ruleMessages;
