import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import {
  WEBHOOK_HEADERS,
  WEBHOOK_MAX,
  WEBHOOK_MAX_TRIES,
  WEBHOOK_RETRY_DELAYS_S,
  WEBHOOK_TIMEOUT_MS,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
} from '@simdock/contract';
import type { AppContext, CodeListener } from '../../context.ts';
import { seal, unseal } from '../../crypto.ts';
import { badInput, conflict, DomainError, notFound } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { webhookTargetProblem } from './url-safety.ts';
import {
  type ClaimedDelivery,
  claimDue,
  deleteWebhook,
  deliveriesByIds,
  deliveriesOf,
  insertWebhook,
  lockUserWebhooks,
  queueDeliveries,
  queueDeliveriesOnCommit,
  recordTry,
  type WebhookRow,
  webhooksOf,
} from './webhooks.queries.ts';

// Webhooks: each incoming code is POSTed as JSON to the user's URLs (up to 3), signed with
// HMAC-SHA256 over `<timestamp>.<body>`. Deliveries are rows queued in the transaction that
// recorded the code; a job claims due rows (SKIP LOCKED + a lease) and retries with backoff.

/** The signature header value: `sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">`. */
export function sign(secret: string, timestamp: number | string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The signing secret in clear, or null when it was sealed under another APP_SECRET. */
function readSecret(ctx: AppContext, sealed: string): string | null {
  try {
    return unseal(ctx.config.APP_SECRET, sealed);
  } catch {
    return null;
  }
}

const SECRET_LOST =
  'The signing secret was made under an earlier APP_SECRET and cannot be read: delete this webhook and add it again.';

function toWebhook(ctx: AppContext, r: WebhookRow): Webhook {
  return {
    id: r.id,
    url: r.url,
    secret: readSecret(ctx, r.secret_enc),
    createdAt: r.created_at.toISOString(),
  };
}

export async function listWebhooks(ctx: AppContext, userId: string): Promise<Webhook[]> {
  return (await webhooksOf(ctx.db, userId)).map((r) => toWebhook(ctx, r));
}

export async function addWebhook(ctx: AppContext, userId: string, rawUrl: string): Promise<Webhook> {
  const url = rawUrl.trim();
  const problem = await webhookTargetProblem(url, ctx.config.WEBHOOK_ALLOW_PRIVATE);
  if (problem) throw new DomainError('webhook_url_refused', problem, 'url');
  return ctx.db.tx(async (q) => {
    await lockUserWebhooks(q, userId);
    const existing = await webhooksOf(q, userId);
    if (existing.some((w) => w.url === url)) throw conflict('This webhook URL is already added.', 'url');
    if (existing.length >= WEBHOOK_MAX) {
      throw conflict(`At most ${WEBHOOK_MAX} webhook URLs; delete one first.`, 'url', 'webhook_limit');
    }
    const secret = `whsec_${randomBytes(24).toString('base64url')}`;
    const row = await insertWebhook(q, {
      userId,
      url,
      secretEnc: seal(ctx.config.APP_SECRET, secret),
      at: ctx.clock.now(),
    });
    if (!row) throw conflict('This webhook URL is already added.', 'url');
    return toWebhook(ctx, row);
  });
}

export async function removeWebhook(ctx: AppContext, userId: string, id: string): Promise<void> {
  if (!isUuid(id) || !(await deleteWebhook(ctx.db, userId, id))) {
    throw notFound('Webhook not found.', 'webhook_not_found');
  }
}

export async function recentDeliveries(ctx: AppContext, userId: string): Promise<WebhookDelivery[]> {
  return deliveriesOf(ctx.db, userId, 50);
}

/** The code listener: queues an `sms-incoming` delivery to each of the user's URLs, in the code's transaction. */
export const queueCodeDeliveries: CodeListener = async (q, c, ctx) => {
  const event: WebhookEvent = {
    event: 'sms-incoming',
    activationId: Number(c.orderId),
    orderId: c.orderId,
    service: c.serviceCode,
    phone: c.phoneNumber.replace(/\D/g, ''),
    code: c.code,
    text: c.text,
    receivedAt: c.receivedAt.toISOString(),
  };
  await queueDeliveriesOnCommit(q, {
    userId: c.userId,
    event: event.event,
    ref: c.ref,
    body: JSON.stringify(event),
    at: ctx.clock.now(),
  });
};

interface TryResult {
  ok: boolean;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
}

/** One POST of a delivery, 3-second timeout, no redirects followed. */
async function post(ctx: AppContext, d: ClaimedDelivery): Promise<TryResult> {
  const started = Date.now();
  const done = (r: Omit<TryResult, 'durationMs'>): TryResult => ({ ...r, durationMs: Date.now() - started });
  const problem = await webhookTargetProblem(d.url, ctx.config.WEBHOOK_ALLOW_PRIVATE);
  if (problem) return done({ ok: false, httpStatus: null, error: problem });
  const secret = readSecret(ctx, d.secret_enc);
  if (secret === null) return done({ ok: false, httpStatus: null, error: SECRET_LOST });
  const timestamp = Math.floor(ctx.clock.now().getTime() / 1000);
  try {
    const res = await fetch(d.url, {
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'SimDock-Webhooks/1.0',
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.signature]: sign(secret, timestamp, d.body),
        [WEBHOOK_HEADERS.event]: d.event,
        [WEBHOOK_HEADERS.delivery]: d.id,
      },
      body: d.body,
    });
    await res.arrayBuffer().catch(() => undefined);
    const ok = res.status >= 200 && res.status < 300;
    return done({ ok, httpStatus: res.status, error: ok ? null : `HTTP ${res.status}` });
  } catch (err) {
    const name = (err as Error).name;
    const error =
      name === 'TimeoutError' || name === 'AbortError'
        ? `No answer within ${WEBHOOK_TIMEOUT_MS / 1000} s`
        : `Could not connect: ${((err as { cause?: Error }).cause ?? (err as Error)).message}`.slice(0, 300);
    return done({ ok: false, httpStatus: null, error });
  }
}

/** Sends claimed deliveries and records each try; `final` records a failure as failed (no retry). */
async function sendClaimed(ctx: AppContext, claimed: ClaimedDelivery[], final = false): Promise<void> {
  await Promise.all(
    claimed.map(async (d) => {
      const r = await post(ctx, d);
      const now = ctx.clock.now();
      const delay = WEBHOOK_RETRY_DELAYS_S[d.attempts - 1];
      const retry = !r.ok && !final && d.attempts < WEBHOOK_MAX_TRIES && delay !== undefined;
      await recordTry(ctx.db, {
        id: d.id,
        at: now,
        ...r,
        nextAt: retry ? new Date(now.getTime() + delay * 1000) : null,
      });
      if (!r.ok) {
        ctx.log.info({ delivery: d.id, try: d.attempts, error: r.error }, 'webhook delivery failed');
        ctx.metrics.webhookFailed('outgoing', r.httpStatus === null ? 'unreachable' : 'http_error');
      }
    }),
  );
}

/** A lease longer than a try can take: a process that dies mid-try frees its rows after this. */
const LEASE_MS = WEBHOOK_TIMEOUT_MS + 30_000;

/** The job: sends due deliveries, a batch at a time; returns how many were tried. */
export async function deliverDue(ctx: AppContext, batch = 20): Promise<number> {
  const now = ctx.clock.now();
  const claimed = await ctx.db.tx((q) => claimDue(q, now, new Date(now.getTime() + LEASE_MS), batch));
  await sendClaimed(ctx, claimed);
  return claimed.length;
}

/** "Send test event": one try now to one URL (id) or each; the result is in the delivery log. */
export async function sendTestEvent(
  ctx: AppContext,
  userId: string,
  webhookId?: string,
): Promise<WebhookDelivery[]> {
  if (webhookId !== undefined && !isUuid(webhookId))
    throw notFound('Webhook not found.', 'webhook_not_found');
  const now = ctx.clock.now();
  const event: WebhookEvent = {
    event: 'test',
    activationId: 0,
    orderId: '0',
    service: 'test',
    phone: '10000000000',
    code: '123456',
    text: 'SimDock test event: your code is 123456',
    receivedAt: now.toISOString(),
  };
  const ids = await ctx.db.tx((q) =>
    queueDeliveries(q, {
      userId,
      event: 'test',
      ref: `test:${randomUUID()}`,
      body: JSON.stringify(event),
      at: now,
      ...(webhookId ? { webhookId } : {}),
    }),
  );
  if (ids.length === 0) {
    throw webhookId
      ? notFound('Webhook not found.', 'webhook_not_found')
      : badInput('Add a webhook URL first.');
  }
  const claimed = await ctx.db.tx((q) =>
    claimDue(q, now, new Date(now.getTime() + LEASE_MS), ids.length, ids),
  );
  await sendClaimed(ctx, claimed, true);
  return deliveriesByIds(ctx.db, ids);
}
