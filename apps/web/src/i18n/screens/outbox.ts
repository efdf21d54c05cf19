/** Texts of the demo mail outbox (a section of the admin overview). */
export const outboxEn = {
  'outbox.title': 'Outbox (mails not sent)',
  'outbox.description':
    'No SMTP_URL is set, so this demo server keeps the mails it would send here (its log notes each one, never its text). Set SMTP_URL to send them.',
  'outbox.empty': 'No mail yet. A password reset request puts one here.',
  'outbox.to': 'To: {to}',
  'outbox.loadFailed': 'The outbox could not be loaded',
} as const;
