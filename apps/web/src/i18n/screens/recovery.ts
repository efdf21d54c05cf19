/** Texts of the forgot-password and reset-password pages (loaded with the public group). */
export const recoveryEn = {
  'recovery.forgotTitle': 'Forgot your password?',
  'recovery.forgotSubtitle': 'Enter your username or email to ask for a link to choose a new password.',
  'recovery.login': 'Username or email',
  'recovery.loginRequired': 'Enter your username or email',
  'recovery.send': 'Send reset link',
  'recovery.sending': 'Sending…',
  'recovery.sent':
    'If an account matches, we have sent a link to reset its password. Check your email (and the spam folder). The link works for 30 minutes.',
  'recovery.noMail': 'This server cannot send email.',
  'recovery.outboxTitle': 'No email was sent: mail is not set up on this server.',
  'recovery.outbox':
    'If an account matches, its reset link was kept in the server’s mail outbox, which an administrator can see on the admin overview. Ask an administrator for the link; it works for 30 minutes.',
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
  'recovery.checking': 'Checking the link…',
  'recovery.resetFailed': 'The password was not changed',
} as const;
