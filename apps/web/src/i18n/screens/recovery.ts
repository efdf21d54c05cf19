/** Texts of the forgot-password and reset-password pages (loaded with the public group). */
export const recoveryEn = {
  'recovery.forgotTitle': 'Forgot your password?',
  'recovery.forgotSubtitle':
    'Enter your username or email. We will send you a link to choose a new password.',
  'recovery.login': 'Username or email',
  'recovery.loginRequired': 'Enter your username or email',
  'recovery.send': 'Send reset link',
  'recovery.sending': 'Sending…',
  'recovery.sent':
    'If an account matches, we have sent a link to reset its password. Check your email (and the spam folder). The link works for 30 minutes.',
  'recovery.noMail': 'This server cannot send email.',
  'recovery.failed': 'The request failed',
  'recovery.backToLogin': 'Back to sign in',
  'recovery.resetTitle': 'Choose a new password',
  'recovery.resetSubtitle': 'Your new password ends every session signed in with the old one.',
  'recovery.newPassword': 'New password',
  'recovery.confirmPassword': 'Confirm new password',
  'recovery.save': 'Set new password',
  'recovery.saving': 'Saving…',
  'recovery.linkInvalid': 'This link has expired or was already used. Ask for a new one.',
  'recovery.askAgain': 'Ask for a new link',
  'recovery.resetFailed': 'The password was not changed',
} as const;
