import type { ApiKeyScope, LiveEventName, LiveMessage, Role } from '@simdock/contract';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from './clock.ts';
import type { Db, Queryable } from './db/db.ts';
import type { AppEvent } from './events.ts';
import type { AppMetrics } from './metrics.ts';
import type { Runtime } from './runtime.ts';
import type { Config } from './settings.ts';

/** What every module needs, built once at start and passed down explicitly. */
export interface AppContext {
  config: Config;
  db: Db;
  clock: Clock;
  log: FastifyBaseLogger;
  /** This server's Prometheus metrics (its own registry); served by the metrics module. */
  metrics: AppMetrics;
  /** Filled once by the composition root (modules/index.ts) from the module descriptors. */
  registry: Registry;
  /** What this server keeps in memory (queues, batch loaders): its own, never another server's. */
  runtime: Runtime;
}

/** The signed-in caller of a route. */
export interface AuthUser {
  id: string;
  username: string;
  roles: Role[];
  /** An admin who must enrol a second factor first: only routes marked `secondFactorSetup` answer. */
  secondFactorPending?: boolean;
  /** This request carried a fresh re-authentication (routes that need one); `withCode`: with a code. */
  reauth?: { withCode: boolean };
}

// ---- extension points: what modules contribute, read by the code that runs them ----------------

/** An incoming SMS as stored (once), handed to the consumers inside its storing transaction. */
export interface StoredSms {
  id: string;
  gatewayId: string | null;
  port: string;
  sender: string;
  /** What the device says the recipient was (often blank); prefer simNumber. */
  recipient: string | null;
  text: string;
  /** Server time of storage (ctx.clock). */
  receivedAt: Date;
  /** Device time, unix seconds (null for the plain-text forward, which carries none). */
  deviceTs?: number | null;
  /** An incoming MMS's files (bytes as the device sent them; consumers check them). */
  attachments?: { contentType: string; data: Uint8Array }[];
  /** The SIM row of that port at arrival, its known number, and the card's ICCID. */
  simId?: string | null;
  simNumber?: string | null;
  iccid?: string | null;
}

/**
 * Takes a newly stored SMS inside its storing transaction; returns true when it used it (the SMS is
 * then marked matched and later consumers are skipped). A consumer that throws is rolled back to a
 * savepoint and logged; the SMS stays stored. Never called for a duplicate or a delivery receipt.
 */
export type SmsConsumer = ((q: Queryable, sms: StoredSms, ctx: AppContext) => Promise<boolean>) & {
  /**
   * Optional: the same decisions for several SMS stored together (a group commit), in fewer
   * statements. Must answer exactly as calling the consumer on each SMS in turn would, one
   * boolean per SMS. Consumers only depend on their own state, so the inbox may run each consumer
   * over the whole batch before the next consumer sees what is left.
   */
  many?: (q: Queryable, list: readonly StoredSms[], ctx: AppContext) => Promise<boolean[]>;
  /**
   * Optional: issues the consumer's reads for SMS about to be stored, without waiting for them, so
   * they travel with the SMS's insert (statements issued together leave in one write: one round
   * trip); the consumer uses them when the SMS reach it, and reads afresh for any it has no read
   * for. Called only where consumers run without savepoints (a failed read fails the transaction).
   */
  readAhead?: (q: Queryable, arriving: readonly ArrivingSms[], ctx: AppContext) => void;
};

/** An SMS about to be stored: what is known of it before its insert answers. */
export type ArrivingSms = Pick<StoredSms, 'gatewayId' | 'port' | 'receivedAt' | 'deviceTs'>;

/**
 * The final result of one recipient of one send task, as a device reported it, in the platform's
 * words (a driver translates its device's codes): `delivered` (the device sent it), `sim_cannot_send`
 * (this SIM is to blame: another SIM may succeed) or `failed` (no other SIM would change it).
 */
export interface SendResult {
  tid: number;
  /**
   * `sent`: the carrier took it, from a device that reports the handset's delivery apart (a phone);
   * `delivered`: the handset got it, or the device's success report when it does not tell the two
   * apart (a multi-port box).
   */
  outcome: 'sent' | 'delivered' | 'sim_cannot_send' | 'failed';
  /** The recipient. */
  number: string;
  /** The SIM that sent it: its port (the driver's slot key, as stored on the SIM). */
  port: string;
  /** The device's own words for a failure, for people ("6 Timeout; 21 Short message transfer rejected"). */
  deviceText: string;
}

/** Called once per accepted push of send results, after the gateway's lastUpdate is set. */
export type ReportConsumer = (ctx: AppContext, gatewayId: string, results: SendResult[]) => Promise<void>;

/** Why a gateway may not be deleted now (for example open rentals on it), or null. */
export type GatewayDeleteCheck = (q: Queryable, gatewayId: string) => Promise<string | null>;

/**
 * Whether a user has history a module keeps (orders, money, payments, messages): such a user is
 * deactivated instead of erased. Answers what it found ("orders") or null.
 */
export type UserHistoryCheck = (q: Queryable, userId: string) => Promise<string | null>;

/**
 * Turns an event of type `K` into what a user's live stream sends, reading what it needs; null
 * sends nothing. The message is the contract's live event of that name (`liveEvents[K]`'s payload).
 */
export type LiveRenderer<K extends AppEvent['type']> = (
  ctx: AppContext,
  event: AppEvent,
) => Promise<LiveMessage<Extract<K, LiveEventName>> | null>;

/** The renderer of each event type (at most one, from the module that owns it). */
export type LiveRenderers = { [K in AppEvent['type']]?: LiveRenderer<K> };

/** A background loop: `run` every `intervalMs`; several processes may run it at once. */
export interface Job {
  name: string;
  intervalMs: (ctx: AppContext) => number;
  run: (ctx: AppContext) => Promise<unknown>;
}

/**
 * Something a module keeps open while the server runs: a LISTEN on the database, a socket, a
 * timer that serves open connections. Listeners start in module order after the jobs and before
 * the server takes requests; they stop once HTTP has drained, in reverse order (workers/listeners.ts).
 * `start` resolves when it listens, with what stops it.
 */
export interface Listener {
  name: string;
  start: (ctx: AppContext) => Promise<() => Promise<void>>;
}

/** Verifies a request's bearer token; throws an `unauthorized` DomainError. */
export type Authenticator = (ctx: AppContext, authorization: string | undefined) => Promise<AuthUser>;

/**
 * What a program's call with an API key may do now: its user, the key (what it may call and from
 * where: the route guard checks both) and where the user stands in the rate limit.
 */
export interface ApiKeyAuth {
  user: AuthUser;
  key: {
    id: string;
    scopes: readonly ApiKeyScope[];
    /** Addresses and CIDR ranges in normal form; empty: any address. */
    allowedIps: readonly string[];
  };
  rate: {
    limit: number;
    /** Calls left in this window after this one; below 0 when this call is over the limit. */
    remaining: number;
    /** Seconds until the window starts again. */
    resetSeconds: number;
  };
}

/**
 * Verifies an API key (missing: `api_key_missing`, unknown: `api_key_invalid`, past its expiry:
 * `api_key_expired`, inactive account: `account_inactive`) and counts the call against the user's
 * rate limit.
 */
export type ApiKeyAuthenticator = (ctx: AppContext, key: string | undefined) => Promise<ApiKeyAuth>;

/** A code an order received, handed to listeners inside the transaction that recorded it. */
export interface ReceivedCode {
  orderId: string;
  userId: string;
  serviceCode: string;
  phoneNumber: string;
  code: string | null;
  text: string;
  receivedAt: Date;
  /** Unique per order and SMS: `order_code:<order id>:<sms id>`. */
  ref: string;
}

/** Reacts to a received code in its transaction (the webhooks module queues its deliveries here). */
export type CodeListener = (q: Queryable, code: ReceivedCode, ctx: AppContext) => Promise<void>;

/** What a messaging event is about; a webhook event of the same name. */
export type MessageEventType =
  | 'message.received'
  | 'message.sent'
  | 'message.delivered'
  | 'message.failed'
  | 'campaign.finished';

/**
 * A message changed (or a campaign ended), handed to listeners inside the transaction that made the
 * change: a device accepted a message (`message.sent`), delivered it, it failed for good (after its
 * retries; a cancelled message is not failed), a reply arrived in a conversation
 * (`message.received`), or a campaign's last message ended (`campaign.finished`, once).
 */
export interface MessageEvent {
  type: MessageEventType;
  userId: string;
  /**
   * The message under the chat's and the messaging API's ids: `o<n>` (sent by us), `i<n>` (a reply
   * received); absent for `campaign.finished`.
   */
  messageId?: string;
  campaignId?: string | null;
  /** The caller's own reference of the send (`campaigns.client_ref`), when it gave one. */
  campaignRef?: string | null;
  conversationId?: string;
  /** Absent for `campaign.finished`. */
  direction?: 'in' | 'out';
  /** The other party's number (absent for `campaign.finished`). */
  phoneNumber?: string;
  /** Our SIM's number, when known. */
  simNumber?: string | null;
  text?: string;
  /** The message's status after the change. */
  status?: string;
  /** Why it failed, for people. */
  reason?: string | null;
  /** `campaign.finished`: how its messages ended. */
  counts?: { delivered: number; failed: number; cancelled: number };
  /** When it happened (server time). */
  at: Date;
}

/**
 * Reacts to messaging events in the transaction that made the change (the webhooks module queues
 * its deliveries here). `many` (optional) takes the events of one change together, in order, in
 * fewer statements; without it the listener is called once per event.
 */
export type MessageEventListener = ((q: Queryable, event: MessageEvent, ctx: AppContext) => Promise<void>) & {
  many?: (q: Queryable, events: readonly MessageEvent[], ctx: AppContext) => Promise<void>;
};

export interface Registry {
  smsConsumers: SmsConsumer[];
  reportConsumers: ReportConsumer[];
  gatewayDeleteChecks: GatewayDeleteCheck[];
  userHistoryChecks: UserHistoryCheck[];
  liveRenderers: LiveRenderers;
  jobs: Job[];
  listeners: Listener[];
  codeListeners: CodeListener[];
  messageEventListeners: MessageEventListener[];
  authenticate: Authenticator;
  authenticateApiKey: ApiKeyAuthenticator;
  /**
   * Whether `proof` (the X-Reauth header) is a fresh re-authentication of this user, and whether a
   * second-factor code was part of it; false when it is not. Filled by auth.
   */
  verifyReauth: (
    ctx: AppContext,
    user: AuthUser,
    proof: string | undefined,
  ) => Promise<false | { withCode: boolean }>;
  /** The user's API key as its owner sees it (user info), or null: filled by the apikey module. */
  apiKeyOf: (ctx: AppContext, userId: string) => Promise<string | null>;
  /** The message prices (the admin's settings read shows them): filled by the messaging module. */
  messagePrices: (ctx: AppContext) => Promise<{ smsPricePerSegment: number; mmsPrice: number }>;
  /**
   * Which of these users have a second factor on (User Manager's list), read through `q` (a caller
   * inside a transaction passes its own): filled by auth.
   */
  secondFactorUsers: (q: Queryable, userIds: readonly string[]) => Promise<Set<string>>;
}

export function emptyRegistry(): Registry {
  return {
    smsConsumers: [],
    reportConsumers: [],
    gatewayDeleteChecks: [],
    userHistoryChecks: [],
    liveRenderers: {},
    jobs: [],
    listeners: [],
    codeListeners: [],
    messageEventListeners: [],
    authenticate: async () => {
      throw new Error('no authenticator registered');
    },
    apiKeyOf: async () => null,
    verifyReauth: async () => false,
    messagePrices: async () => ({ smsPricePerSegment: 0, mmsPrice: 0 }),
    secondFactorUsers: async () => new Set(),
    authenticateApiKey: async () => {
      throw new Error('no API key authenticator registered');
    },
  };
}
