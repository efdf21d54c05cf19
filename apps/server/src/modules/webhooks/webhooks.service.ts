import { randomBytes, randomUUID } from 'node:crypto';
import {
  MessageEventBody,
  WEBHOOK_EVENTS,
  WEBHOOK_HEADERS,
  WEBHOOK_MAX,
  WEBHOOK_MAX_TRIES,
  WEBHOOK_RETRY_DELAYS_S,
  WEBHOOK_TIMEOUT_MS,
  type Webhook,
  type WebhookDelivery,
  type WebhookEvent,
  type WebhookEventName,
  type WebhookFormat,
} from '@simdock/contract';
import { fetch } from 'undici';
import type { AppContext, CodeListener, MessageEventListener } from '../../context.ts';
import { seal, unseal } from '../../crypto.ts';
import { badInput, conflict, DomainError, notFound } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import {
  eventIdOf,
  eventsOfFormat,
  queuedEvent,
  SMSGATE_HEADERS,
  sign,
  signSmsgate,
  smsgateBody,
  smsgatePing,
} from './events.ts';
import { publicOnlyDispatcher, webhookTargetProblem } from './url-safety.ts';
import {
  type ClaimedDelivery,
  claimDue,
  deleteWebhook,
  deleteWebhookByClientId,
  deliveriesByIds,
  deliveriesOf,
  findWebhook,
  insertWebhook,
  lockUserWebhooks,
  queueDeliveries,
  queueDeliveriesOnCommit,
  queueEventsOnCommit,
  queueRedelivery,
  recordTry,
  replaceWebhook,
  setWebhookEvents,
  type WebhookRow,
  webhooksOf,
} from './webhooks.queries.ts';

// Webhooks: incoming codes and messaging events are POSTed as JSON to the user's URLs, each URL
// with the events it chose, signed (SimDock: HMAC-SHA256 over `<timestamp>.<body>`; SMSGate's
// format: over `<body><timestamp>`). Deliveries are rows queued in the transaction that saw the
// event; a job claims due rows (SKIP LOCKED + a lease), keeps one message's events in order per
// URL, and retries with backoff. A redelivery is a new row with the same event id.

/** Webhooks a program may register under its own ids (one per event, SMSGate's way), per user. */
export const PROGRAM_WEBHOOK_MAX = 12;

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
    events: r.events,
    format: r.format,
    secret: readSecret(ctx, r.secret_enc),
    createdAt: r.created_at.toISOString(),
  };
}

/** A webhook as another module sees it: with the id its program gave it (null: added on the page). */
export type WebhookOf = Webhook & { clientId: string | null };

const toWebhookOf = (ctx: AppContext, r: WebhookRow): WebhookOf => ({
  ...toWebhook(ctx, r),
  clientId: r.client_id,
});

export async function listWebhooks(ctx: AppContext, userId: string): Promise<Webhook[]> {
  return (await webhooksOf(ctx.db, userId)).map((r) => toWebhook(ctx, r));
}

/** Every webhook of the user, with the id a program gave it (for the SMSGate-compatible API). */
export async function listWebhooksOf(ctx: AppContext, userId: string): Promise<WebhookOf[]> {
  return (await webhooksOf(ctx.db, userId)).map((r) => toWebhookOf(ctx, r));
}

/** The events, in the contract's order, once each; refused when the format cannot carry one. */
function checkedEvents(
  events: readonly WebhookEventName[] | undefined,
  format: WebhookFormat,
): WebhookEventName[] {
  const allowed = eventsOfFormat(format);
  const chosen = events ?? allowed;
  if (chosen.length === 0) throw badInput('Choose at least one event.', 'events');
  const bad = chosen.filter((e) => !allowed.includes(e));
  if (bad.length > 0) {
    throw badInput(
      format === 'smsgate'
        ? `An SMSGate-format webhook receives only ${allowed.join(', ')} (not ${bad.join(', ')}).`
        : `Unknown events: ${bad.join(', ')}.`,
      'events',
    );
  }
  return WEBHOOK_EVENTS.filter((e) => chosen.includes(e));
}

export interface AddWebhookFor {
  url: string;
  /** Absent: every event the format carries. */
  events?: readonly WebhookEventName[];
  format?: WebhookFormat;
  /**
   * The program's own id for this webhook (at most 36 characters): registering again under it
   * replaces that webhook's URL, events and format (its secret stays). Without it: a new webhook
   * (the page's; its URL unique among them, at most WEBHOOK_MAX).
   */
  id?: string;
  /**
   * The HMAC key that signs its deliveries (SMSGate's signing key, one for a user's program
   * webhooks): absent, a new random `whsec_…` (a replaced webhook keeps its own).
   */
  secret?: string;
}

/**
 * Adds (or, under a program's id already registered, replaces) a webhook of the user. The URL is
 * checked as on the page (a private address is refused in production). For another module: the
 * SMSGate-compatible API registers its webhooks here.
 */
export async function addWebhookFor(ctx: AppContext, userId: string, w: AddWebhookFor): Promise<WebhookOf> {
  return toWebhookOf(ctx, await addWebhookRow(ctx, userId, w));
}

async function addWebhookRow(ctx: AppContext, userId: string, w: AddWebhookFor): Promise<WebhookRow> {
  const url = w.url.trim();
  const format = w.format ?? 'simdock';
  const events = checkedEvents(w.events, format);
  const clientId = w.id?.trim() || null;
  if (clientId !== null && clientId.length > 36)
    throw badInput('A webhook id has at most 36 characters.', 'id');
  if (!url) throw badInput('Enter a webhook URL.', 'url');
  if (w.secret !== undefined && (w.secret.length < 1 || w.secret.length > 256)) {
    throw badInput('A signing key has 1 to 256 characters.', 'secret');
  }
  const givenSecret = w.secret === undefined ? null : seal(ctx.config.APP_SECRET, w.secret);
  const problem = await webhookTargetProblem(url, ctx.config.WEBHOOK_ALLOW_PRIVATE);
  if (problem) throw new DomainError('webhook_url_refused', problem, 'url');
  return ctx.db.tx(async (q) => {
    await lockUserWebhooks(q, userId);
    if (clientId !== null) {
      const replaced = await replaceWebhook(q, {
        userId,
        clientId,
        url,
        events,
        format,
        secretEnc: givenSecret,
      });
      if (replaced) return replaced;
    }
    const existing = await webhooksOf(q, userId);
    const mine = existing.filter((e) => (e.client_id === null) === (clientId === null));
    if (clientId === null && mine.some((e) => e.url === url)) {
      throw conflict('This webhook URL is already added.', 'url');
    }
    const max = clientId === null ? WEBHOOK_MAX : PROGRAM_WEBHOOK_MAX;
    if (mine.length >= max) {
      throw conflict(`At most ${max} webhook URLs; delete one first.`, 'url', 'webhook_limit');
    }
    const secretEnc =
      givenSecret ?? seal(ctx.config.APP_SECRET, `whsec_${randomBytes(24).toString('base64url')}`);
    const row = await insertWebhook(q, {
      userId,
      url,
      secretEnc,
      events,
      format,
      clientId,
      at: ctx.clock.now(),
    });
    if (!row) throw conflict('This webhook URL is already added.', 'url');
    return row;
  });
}

/** The page's "add": a SimDock-format URL with the chosen events (all of them by default). */
export async function addWebhook(
  ctx: AppContext,
  userId: string,
  rawUrl: string,
  events?: readonly WebhookEventName[],
): Promise<Webhook> {
  const row = await addWebhookRow(ctx, userId, {
    url: rawUrl,
    format: 'simdock',
    ...(events ? { events } : {}),
  });
  return toWebhook(ctx, row);
}

/** Which events one of the user's URLs receives. */
export async function setEvents(
  ctx: AppContext,
  userId: string,
  id: string,
  events: readonly WebhookEventName[],
): Promise<Webhook> {
  const missing = () => notFound('Webhook not found.', 'webhook_not_found');
  if (!isUuid(id)) throw missing();
  return ctx.db.tx(async (q) => {
    const row = await findWebhook(q, userId, id);
    if (!row) throw missing();
    const updated = await setWebhookEvents(q, userId, id, checkedEvents(events, row.format));
    if (!updated) throw missing();
    return toWebhook(ctx, updated);
  });
}

export async function removeWebhook(ctx: AppContext, userId: string, id: string): Promise<void> {
  if (!isUuid(id) || !(await deleteWebhook(ctx.db, userId, id))) {
    throw notFound('Webhook not found.', 'webhook_not_found');
  }
}

/**
 * Deletes the user's webhook that a program registered under `id` (or, failing that, the one
 * with our id `id`); false when the user has none such. For the SMSGate-compatible API.
 */
export async function removeWebhookOf(ctx: AppContext, userId: string, id: string): Promise<boolean> {
  if (await deleteWebhookByClientId(ctx.db, userId, id)) return true;
  return isUuid(id) && (await deleteWebhook(ctx.db, userId, id));
}

export async function recentDeliveries(ctx: AppContext, userId: string): Promise<WebhookDelivery[]> {
  return deliveriesOf(ctx.db, userId, 50);
}

/** The code listener: queues a `code.received` delivery to each URL that takes it, in the code's transaction. */
export const queueCodeDeliveries: CodeListener = async (q, c, ctx) => {
  const event: WebhookEvent = {
    event: 'code.received',
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
    eventId: eventIdOf(c.ref),
    body: JSON.stringify(event),
    at: ctx.clock.now(),
  });
};

/**
 * The messaging events' listener: one delivery per event and URL that chose it, queued with the
 * change's COMMIT; a change's events together in one statement.
 */
export const queueMessageEvents: MessageEventListener = Object.assign(
  async (q: Parameters<MessageEventListener>[0], e: Parameters<MessageEventListener>[1], ctx: AppContext) => {
    await queueEventsOnCommit(q, [queuedEvent(e)], ctx.clock.now());
  },
  {
    many: async (
      q: Parameters<MessageEventListener>[0],
      events: readonly Parameters<MessageEventListener>[1][],
      ctx: AppContext,
    ) => {
      await queueEventsOnCommit(q, events.map(queuedEvent), ctx.clock.now());
    },
  },
);

interface TryResult {
  ok: boolean;
  httpStatus: number | null;
  error: string | null;
  durationMs: number;
}

/** The body and headers of one try: the URL's format decides; null when it cannot carry the event. */
export function requestOf(
  d: Pick<ClaimedDelivery, 'id' | 'event' | 'event_id' | 'body' | 'format' | 'webhook_ref'>,
  secret: string,
  timestamp: number,
): { body: string; headers: Record<string, string> } | null {
  const common = { 'content-type': 'application/json', 'user-agent': 'SimDock-Webhooks/1.0' };
  if (d.format === 'smsgate') {
    let body: string | null;
    if (d.event === 'test') body = smsgatePing(d.event_id, d.webhook_ref);
    else {
      const parsed = MessageEventBody.safeParse(JSON.parse(d.body));
      body = parsed.success ? smsgateBody(parsed.data, d.webhook_ref) : null;
    }
    if (body === null) return null;
    return {
      body,
      headers: {
        ...common,
        [SMSGATE_HEADERS.timestamp]: String(timestamp),
        [SMSGATE_HEADERS.signature]: signSmsgate(secret, timestamp, body),
      },
    };
  }
  return {
    body: d.body,
    headers: {
      ...common,
      [WEBHOOK_HEADERS.timestamp]: String(timestamp),
      [WEBHOOK_HEADERS.signature]: sign(secret, timestamp, d.body),
      [WEBHOOK_HEADERS.event]: d.event,
      [WEBHOOK_HEADERS.eventId]: d.event_id,
      [WEBHOOK_HEADERS.delivery]: d.id,
    },
  };
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
  const request = requestOf(d, secret, timestamp);
  if (!request) {
    return done({ ok: false, httpStatus: null, error: `The ${d.format} format has no form of this event.` });
  }
  try {
    // In production the socket's own lookup refuses private results, so a name that passed the
    // check above cannot be re-resolved to a private address for the connection itself.
    const res = await fetch(d.url, {
      ...(ctx.config.WEBHOOK_ALLOW_PRIVATE ? {} : { dispatcher: publicOnlyDispatcher() }),
      method: 'POST',
      redirect: 'manual',
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      headers: request.headers,
      body: request.body,
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
  const ref = `test:${randomUUID()}`;
  const ids = await ctx.db.tx((q) =>
    queueDeliveries(q, {
      userId,
      event: 'test',
      ref,
      eventId: eventIdOf(ref),
      body: JSON.stringify(event),
      at: now,
      anyEvent: true,
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

/**
 * "Redeliver": a logged delivery of the user sent again now, one try, as a new delivery with the
 * same event id and body (the receiver's de-duplication sees the same event). Another user's
 * delivery, or one whose URL was deleted, is not found.
 */
export async function redeliver(
  ctx: AppContext,
  userId: string,
  deliveryId: string,
): Promise<WebhookDelivery[]> {
  const missing = () => notFound('Delivery not found.');
  if (!/^\d{1,18}$/.test(deliveryId)) throw missing();
  const now = ctx.clock.now();
  const id = await ctx.db.tx((q) =>
    queueRedelivery(q, userId, deliveryId, `redelivery:${deliveryId}:${randomUUID()}`, now),
  );
  if (id === undefined) throw missing();
  const claimed = await ctx.db.tx((q) => claimDue(q, now, new Date(now.getTime() + LEASE_MS), 1, [id]));
  await sendClaimed(ctx, claimed, true);
  return deliveriesByIds(ctx.db, [id]);
}
