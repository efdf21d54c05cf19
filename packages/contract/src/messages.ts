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
  priceDecimals: 'Price can have at most two decimals',
  stockTooHigh: 'Stock must be at most 1,000,000',
  rentTimeTooHigh: 'Rent time must be at most 525,600 minutes (one year)',
  gatewayInvalid: 'Please enter all fields correctly',
  invalidEmail: 'Invalid email',
  invalidRoles: 'Invalid role(s)',
  rolesRequired: 'Select at least one role',
  balanceInvalid: 'Balance must be a number ≥ 0 with at most four decimals',
} as const;

export type RuleMessageKey = keyof typeof ruleMessages;

/**
 * Canonical (English) texts of the messaging rules (bulk send, uploads, chat, outreach settings).
 *
 * Kept apart from `ruleMessages` on purpose: the web catalogue must hold a `rule.<key>` entry for every
 * `RuleMessageKey` (a compile-time check in apps/web/src/i18n/en.ts), so these keys get their own
 * prefix there, `messaging.<key>`, with the same texts. `{name}` marks a parameter, in the same syntax the
 * web app's `t(key, params)` interpolates, so a catalogue entry can be copied verbatim.
 * Rule functions return a `MessagingMessage` ({key, params, text}): the web app shows
 * `t(\`messaging.${m.key}\`, m.params)`, the server answers with `m.text`.
 */
export const messagingMessages = {
  recipientsRequired: 'Please enter at least one phone number.',
  invalidNumbers: 'Invalid numbers (only accept format: 1XXXXXXXXXX): {numbers}',
  tooManyNumbers: 'Too many phone numbers! Limit is {limit}, but you provided {provided}.',
  typingLimit: 'Limit is {limit} numbers.',
  messageRequired: 'Please enter the message content.',
  messageLineTooLong: 'Each message line must not exceed 150 characters.',
  tooManyMessageLines: 'Too many message lines! Limit is {limit}.',
  dailyLimitReached: 'Daily limit reached! Limit is {limit} messages per day, {remaining} left today.',
  sendSuccess: 'Send successful!',
  sendError: 'Send error.',
  fileRequired: 'Please choose a file.',
  fileOneOnly: 'Please upload one file at a time.',
  fileType: 'Only .txt and .csv files are accepted.',
  fileTooLarge: 'The file must not exceed 10 MB.',
  fileEmpty: 'The file is empty.',
  invalidNumbersInFile: 'Invalid numbers in file: {numbers}',
  fileNoNumbers: 'No valid phone numbers found in the file.',
  mmsFileRequired: 'No file provided',
  chatEmpty: 'Please enter a message or attach a file.',
  maxBatchSendSmsInvalid: 'Max Batch Send SMS must be a whole number from 0 to {max}.',
  maxMsgPerDayInvalid: 'Max Messages Per Day must be a whole number from 0 to {max}.',
  simMaxSmsPerDayInvalid: 'SIM Max SMS Per Day must be a whole number from 0 to {max}.',
  simMaxSmsPerMonthInvalid: 'SIM Max SMS Per Month must be a whole number from 0 to {max}.',
  simLockAfterFailuresInvalid: 'Lock SIM After Failures must be a whole number from 0 to {max}.',
  smsPriceInvalid: 'Price per SMS segment must be an amount ≥ 0 with at most four decimals (USD).',
  mmsPriceInvalid: 'Price per MMS must be an amount ≥ 0 with at most four decimals (USD).',
  simCooldownMinutesInvalid: 'SIM Cooldown (minutes) must be a whole number from 0 to {max}.',
  simsKeptForSendingInvalid: 'SIMs Kept For Sending (%) must be a whole number from 0 to {max}.',
  historyRangeInvalid: 'The end date must not be before the start date.',
} as const;

export type MessagingMessageKey = keyof typeof messagingMessages;
export type MessageParams = Readonly<Record<string, string | number>>;

/** A translatable message: its key, its parameters, and the canonical English text. */
export interface MessagingMessage {
  readonly key: MessagingMessageKey;
  readonly params: MessageParams;
  readonly text: string;
}

/** Fills `{name}` placeholders once (no re-scan of inserted values, so user text cannot inject). */
export function interpolate(template: string, params: MessageParams): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

export function messagingMessage(key: MessagingMessageKey, params: MessageParams = {}): MessagingMessage {
  return { key, params, text: interpolate(messagingMessages[key], params) };
}
