import nodemailer from 'nodemailer';
import type { KernelConfig } from '../config.ts';
import type { AppContext } from '../context.ts';
import { runtimeKey } from '../runtime.ts';

// Outgoing mail. With SMTP_URL set, mails go to that server. Without it, a developer's machine
// (the demo, or NODE_ENV=development) keeps them in an outbox: the admin-only
// GET /api/Admin/mail/outbox (the log says a mail was kept, never its body: a body may carry a link
// that opens an account). Anywhere else (production, tests) nothing is sent and the callers say so
// (the forgot-password page shows SUPPORT_CONTACT instead).

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

export type MailMode = 'smtp' | 'outbox' | 'off';

export interface OutboxEntry {
  id: number;
  at: Date;
  to: string;
  subject: string;
  text: string;
}

/** How many kept mails the outbox lists (the oldest goes first). */
export const OUTBOX_SIZE = 50;

export function mailMode(config: Pick<KernelConfig, 'SMTP_URL' | 'DEMO' | 'NODE_ENV'>): MailMode {
  if (config.SMTP_URL) return 'smtp';
  return config.DEMO || config.NODE_ENV === 'development' ? 'outbox' : 'off';
}

type Transport = ReturnType<typeof nodemailer.createTransport>;

// One SMTP transport per server (it reads SMTP_URL once); the outbox is per server too. The outbox
// lives in memory: it is a newcomer's convenience on one process, never production's record.
const transportKey = runtimeKey<Transport>('mail.transport');
const outboxKey = runtimeKey<{ seq: number; mails: OutboxEntry[] }>('mail.outbox');

function transport(ctx: AppContext): Transport {
  return ctx.runtime.get(transportKey, () =>
    nodemailer.createTransport(ctx.config.SMTP_URL!, {
      // A dead mail server must not hold a request's background work for minutes.
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout: 30_000,
    } as object),
  );
}

/**
 * Sends a mail (or keeps it in the outbox). Resolves to where it went: `off` means nothing was
 * sent. A failure of the SMTP server rejects; callers decide whether a person hears about it.
 */
export async function sendMail(ctx: AppContext, mail: Mail): Promise<MailMode> {
  const mode = mailMode(ctx.config);
  if (mode === 'off') return mode;
  if (mode === 'outbox') {
    const box = ctx.runtime.get(outboxKey, () => ({ seq: 0, mails: [] }));
    const entry: OutboxEntry = {
      id: ++box.seq,
      at: ctx.clock.now(),
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
    };
    box.mails.push(entry);
    if (box.mails.length > OUTBOX_SIZE) box.mails.shift();
    // Never the body: a reset mail carries a link that opens the account.
    ctx.log.info(
      { mail: { to: mail.to, subject: mail.subject } },
      'Mail kept in the outbox (no SMTP_URL set), not sent: an admin reads it on the admin overview',
    );
    return mode;
  }
  await transport(ctx).sendMail({
    from: ctx.config.MAIL_FROM,
    to: mail.to,
    subject: mail.subject,
    text: mail.text,
    ...(mail.html ? { html: mail.html } : {}),
  });
  // Never the body: it may carry a link that opens the account.
  ctx.log.info({ mail: { to: mail.to, subject: mail.subject } }, 'Mail sent');
  return mode;
}

/** The kept mails, newest first. */
export function outbox(ctx: AppContext): OutboxEntry[] {
  return [...ctx.runtime.get(outboxKey, () => ({ seq: 0, mails: [] })).mails].reverse();
}
