import type { AppContext } from '../../context.ts';
import { sendMail } from '../../mail/index.ts';
import { findUserById } from './users.queries.ts';

// Mails that tell an account's owner about a change to its security, so a stranger's change does not
// go unnoticed. English, as the reset mail (the server does not know the reader's language). Never a
// key, code or link: only what happened, when, and what to do about it.

export type OwnerNotice =
  | 'secondFactorLimited'
  | 'apiKeyCreated'
  | 'secondFactorEnabled'
  | 'secondFactorDisabled'
  | 'recoveryCodesReplaced'
  | 'secondFactorReset'
  | 'passwordChanged'
  | 'passwordReset';

const NOT_YOU =
  'If this was not you, someone else knows your password: change it now (User Info), and check your API keys and webhooks.';

/** The subject and first lines of each notice. */
export function noticeText(
  notice: OwnerNotice,
  username: string,
  at: Date,
): { subject: string; text: string } {
  const when = at.toISOString().replace('T', ' ').slice(0, 16);
  const lines: Record<OwnerNotice, [string, string]> = {
    secondFactorLimited: [
      'Someone knows your SimDock password',
      `Someone signed in to your account with the right password and then entered too many wrong two-factor codes (${when} UTC). Codes are refused for a while. If this was not you, change your password now: the second factor held, but the password is known.`,
    ],
    apiKeyCreated: [
      'A new SimDock API key was made',
      `A new API key was made for your account (${when} UTC).`,
    ],
    secondFactorEnabled: [
      'Two-factor authentication is on',
      `Two-factor authentication was turned on for your account (${when} UTC).`,
    ],
    secondFactorDisabled: [
      'Two-factor authentication is off',
      `Two-factor authentication was turned off for your account (${when} UTC).`,
    ],
    recoveryCodesReplaced: [
      'New two-factor recovery codes',
      `New recovery codes were made for your account (${when} UTC); the old ones no longer work.`,
    ],
    secondFactorReset: [
      'Two-factor authentication was reset',
      `An administrator turned two-factor authentication off for your account (${when} UTC).`,
    ],
    passwordChanged: [
      'Your SimDock password was changed',
      `The password of your account was changed (${when} UTC).`,
    ],
    passwordReset: [
      'Your SimDock password was reset',
      `The password of your account was reset with an emailed link (${when} UTC). Every session ended and every API key was deleted: make new keys in the API Key page.`,
    ],
  };
  const [subject, first] = lines[notice];
  return { subject, text: [`Hello ${username},`, '', first, '', NOT_YOU].join('\n') };
}

/**
 * Mails the owner of `userId` about `notice`. A mail that cannot be sent is logged, never the
 * caller's failure: the change it reports has happened already.
 */
export async function mailOwner(ctx: AppContext, userId: string, notice: OwnerNotice): Promise<void> {
  try {
    const user = await findUserById(ctx.db, userId);
    if (!user?.email) return;
    await sendMail(ctx, { to: user.email, ...noticeText(notice, user.username, ctx.clock.now()) });
  } catch (err) {
    ctx.log.error({ err, notice }, 'owner notice mail failed');
  }
}
