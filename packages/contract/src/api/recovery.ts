import { z } from 'zod';
import { boundedText } from '../limits.ts';
import { ruleMessages } from '../messages.ts';
import { EMAIL_MAX, PASSWORD_MAX } from '../rules.ts';

// Password recovery by email: the forgot-password and reset-password pages, and the demo outbox.

/** How long an emailed reset link works. */
export const RESET_LINK_MINUTES = 30;

/** The one answer to every forgot-password request, whatever the account (no enumeration). */
export const FORGOT_NEUTRAL_MESSAGE =
  'If an account matches, we have sent a link to reset its password. Check your email.';

/** The answer to an unknown, expired, superseded or already used reset link. */
export const RESET_LINK_INVALID = 'This link has expired or was already used. Ask for a new one.';

export const ForgotBody = z.object({
  /** A username or an email address. */
  login: boundedText(EMAIL_MAX, 'Username or email'),
});
export type ForgotBody = z.infer<typeof ForgotBody>;

export const ForgotResponse = z.object({
  code: z.literal(1),
  msg: z.string(),
  /** False when this server sends no mail: the page then shows `supportContact` instead. */
  mailEnabled: z.boolean(),
  /**
   * Where a link goes: `smtp` mailed; `outbox` kept unsent in the admin's Mail outbox (no mail server
   * set up: demo, development); `off` nowhere (the page shows `supportContact`).
   */
  mailMode: z.enum(['smtp', 'outbox', 'off']),
  supportContact: z.string(),
});
export type ForgotResponse = z.infer<typeof ForgotResponse>;

export const ResetBody = z.object({
  token: z.string().min(1, RESET_LINK_INVALID).max(200, RESET_LINK_INVALID),
  password: boundedText(PASSWORD_MAX, 'Password', ruleMessages.passwordTooLong),
});
export type ResetBody = z.infer<typeof ResetBody>;

export const ResetResponse = z.object({ code: z.literal(1), msg: z.string() });

/** POST /api/Auth/resetCheck: whether a reset link still works, without using it. */
export const ResetCheckBody = z.object({
  token: z.string().min(1, RESET_LINK_INVALID).max(200, RESET_LINK_INVALID),
});
export type ResetCheckBody = z.infer<typeof ResetCheckBody>;

/** The link works (a dead one is a 400 with RESET_LINK_INVALID on `token`). */
export const ResetCheckResponse = z.object({ code: z.literal(1), msg: z.string() });
export type ResetCheckResponse = z.infer<typeof ResetCheckResponse>;

/** One mail the server kept instead of sending (demo and development without SMTP). */
export const OutboxMail = z.object({
  id: z.number(),
  at: z.string(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
});
export type OutboxMail = z.infer<typeof OutboxMail>;

export const OutboxResponse = z.object({
  code: z.literal(1),
  /** `outbox`: mails are kept here; `smtp`: they are sent (the list stays empty); `off`: none. */
  mode: z.enum(['smtp', 'outbox', 'off']),
  mails: z.array(OutboxMail),
});
export type OutboxResponse = z.infer<typeof OutboxResponse>;
