import { randomUUID } from 'node:crypto';
import type { AppContext, ReportConsumer, SendResult } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { publish } from '../../events.ts';
import {
  type MmsContent,
  recordSimOutcomes,
  type SendableSim,
  type SendTask,
  type SendTasksResult,
  type SimOutcome,
  sendableSims,
  sendSmsTasks,
} from '../gateways/index.ts';
import { simsInOpenRentals } from '../rental/index.ts';
import { claimCapacity, type PlanSettings, planClaim, type ReadySim } from './claim-plan.ts';
import {
  type Assignment,
  backOffSims,
  ensurePaceRows,
  failExpiredQueued,
  failOverdue,
  failStalePinned,
  hasDispatchWork,
  lockExpiredClaims,
  lockQueued,
  lockReadySims,
  markCarrierAccepted,
  markClaimed,
  markDelivered,
  markFailed,
  markSent,
  queuedMessageCount,
  queuedWithoutSim,
  type ResultKey,
  type ResultRow,
  rememberConversationSims,
  requeue,
  retryOrFail,
  savePace,
  type Touched,
} from './dispatch.queries.ts';
import { mediaForSending } from './media.queries.ts';
import { messagesChanged } from './message-events.service.ts';
import { endedAny, refundEndedMessages } from './refunds.service.ts';

// The dispatcher: claims queued messages under a lease, spreads them over the SIMs that can send
// (per-SIM rate limit shared by every process), hands them to each gateway in one request, and
// records what the device answers and later reports. Safe to run in several processes at once.

/** Most messages one SIM takes in one tick (its device queues them). */
const MAX_PER_SIM_PER_TICK = 50;
/** How long SIMs of a gateway that did not answer are left alone. */
export const GATEWAY_BACKOFF_MS = 30_000;
/** How long a SIM the device refused (unregistered, bad port) is left alone. */
export const SIM_BACKOFF_MS = 60_000;
/** A busy device (too many tasks) gets the messages again after this. */
const BUSY_RETRY_MS = 10_000;

/**
 * The device task id of one attempt of one message: unique per message and attempt, inside signed
 * 32 bits (ids wrap after 268 million messages, far beyond any task a device remembers). Sending the
 * same attempt again (a claim re-taken after a crash) reuses it, so the device refuses it as a
 * duplicate instead of sending it twice.
 */
export function taskId(messageId: string, attempt: number): number {
  return Number(BigInt(messageId) % 268_435_456n) * 8 + (attempt & 7);
}

export interface DispatchHooks {
  /** Called after the claim committed, before any device call (tests stop a dispatcher here). */
  afterClaim?: (claim: Claim) => Promise<void> | void;
  /** Called after the device calls, before their answers are recorded. */
  afterSend?: (claim: Claim) => Promise<void> | void;
}

export interface Claim {
  id: string;
  at: Date;
  assignments: ClaimedMessage[];
  /** SIMs of the pool by id (for gateway back-off). */
  simsByGateway: Map<string, string[]>;
}

export type ClaimedMessage = Assignment & {
  recipient: string;
  body: string;
  mms_file: string | null;
  mms_title: string | null;
};

export interface DispatchResult {
  claimed: number;
  accepted: number;
  retried: number;
  failed: number;
  requeued: number;
}

const none = (): DispatchResult => ({ claimed: 0, accepted: 0, retried: 0, failed: 0, requeued: 0 });

/** One dispatcher tick. */
export async function dispatchOnce(ctx: AppContext, hooks: DispatchHooks = {}): Promise<DispatchResult> {
  const claim = await claimBatch(ctx);
  if (!claim) return none();
  await hooks.afterClaim?.(claim);
  const answers = await sendClaim(ctx, claim);
  await hooks.afterSend?.(claim);
  const result = await recordAnswers(ctx, claim, answers);
  ctx.metrics.dispatched(result);
  return result;
}

/**
 * The SIMs bulk sending may use now: sendable (not locked, not reserved for rentals, below their
 * caps: the gateways module decides), and not holding an open rental.
 */
export async function sendingPool(ctx: AppContext, now: Date): Promise<SendableSim[]> {
  const [sims, rented] = await Promise.all([sendableSims(ctx.db, now), simsInOpenRentals(ctx.db, now)]);
  if (rented.length === 0) return sims;
  const busy = new Set(rented);
  return sims.filter((s) => !busy.has(s.id));
}

/** True when no SIM can send now: queued messages wait for a free SIM. */
export async function noFreeSim(ctx: AppContext): Promise<boolean> {
  return (await sendingPool(ctx, ctx.clock.now())).length === 0;
}

/** The admin overview's queue figures: messages queued, and those no SIM can take now. */
export async function queueFigures(
  ctx: AppContext,
): Promise<{ messagesQueued: number; messagesWaitingForSim: number }> {
  // An empty queue needs no sending pool (which reads the SIMs in open rentals): the usual case.
  if ((await queuedMessageCount(ctx.db)) === 0) return { messagesQueued: 0, messagesWaitingForSim: 0 };
  const pool = await sendingPool(ctx, ctx.clock.now());
  const n = await queuedWithoutSim(
    ctx.db,
    pool.map((s) => s.id),
  );
  return { messagesQueued: n.queued, messagesWaitingForSim: n.waiting };
}

/** Claims messages for the SIMs that have capacity in this tick; undefined when nothing was claimed. */
export async function claimBatch(ctx: AppContext): Promise<Claim | undefined> {
  const now = ctx.clock.now();
  if (!(await hasDispatchWork(ctx.db, now))) return undefined;
  const pool = await sendingPool(ctx, now);
  if (pool.length === 0) return undefined;
  const byId = new Map(pool.map((s) => [s.id, s]));
  await ensurePaceRows(ctx.db, [...byId.keys()]);

  const settings: PlanSettings = {
    intervalMs: 60_000 / ctx.config.SMS_PER_SIM_PER_MINUTE,
    horizonMs: ctx.config.SMS_DISPATCH_INTERVAL_MS,
    maxPerSimPerTick: MAX_PER_SIM_PER_TICK,
  };
  const claimId = randomUUID();
  const leaseUntil = new Date(now.getTime() + ctx.config.SMS_LEASE_SECONDS * 1000);

  // Reads (the SIMs' pace rows and the candidates, locked), plans (claim-plan.ts), applies.
  const assignments = await ctx.db.tx(async (q) => {
    const locked = await lockReadySims(q, [...byId.keys()], new Date(now.getTime() + settings.horizonMs));
    if (locked.length === 0) return [];
    const ready: ReadySim[] = locked.map((r) => ({
      id: r.sim_id,
      nextAt: r.next_at,
      remaining: byId.get(r.sim_id)?.remaining ?? null,
    }));
    const total = claimCapacity(ready, now, settings);
    const expired = await lockExpiredClaims(q, now, total);
    const queued = await lockQueued(
      q,
      now,
      Math.min(total * 2, total + 200) - expired.length,
      ready.map((r) => r.id),
    );
    const plan = planClaim({ expired, queued, ready, pool: [...byId.keys()], now, settings });
    const out: ClaimedMessage[] = plan.take.map(({ message: m, simId }) => {
      const sim = byId.get(simId)!;
      return {
        id: m.id,
        sim_id: sim.id,
        gateway_id: sim.gateway_id,
        gateway_name: sim.gateway_name,
        port: sim.port,
        tid: taskId(m.id, m.attempt),
        recipient: m.recipient,
        body: m.body,
        mms_file: m.mms_file,
        mms_title: m.mms_title,
      };
    });
    await markClaimed(q, claimId, leaseUntil, out);
    await savePace(q, plan.pace);
    return out;
  });
  if (assignments.length === 0) return undefined;
  const simsByGateway = new Map<string, string[]>();
  for (const s of pool) simsByGateway.set(s.gateway_id, [...(simsByGateway.get(s.gateway_id) ?? []), s.id]);
  return { id: claimId, at: now, assignments, simsByGateway };
}

type Answers = Map<string, SendTasksResult>;

/** One request per gateway, in parallel; one task per message, from its SIM's port. */
export async function sendClaim(ctx: AppContext, claim: Claim): Promise<Answers> {
  const perGateway = new Map<string, SendTask[]>();
  const names = [...new Set(claim.assignments.flatMap((a) => (a.mms_file ? [a.mms_file] : [])))];
  const media = names.length ? await mediaForSending(ctx.db, names) : new Map();
  for (const a of claim.assignments) {
    const tasks = perGateway.get(a.gateway_id) ?? [];
    let mms: MmsContent | undefined;
    const file = a.mms_file ? media.get(a.mms_file) : undefined;
    if (file) {
      mms = {
        title: a.mms_title || 'MMS',
        attachments: [{ type: file.name.split('.').pop() ?? 'bin', data: file.data }],
      };
    }
    tasks.push({
      tid: a.tid,
      to: a.recipient,
      sms: a.body,
      from: a.port,
      ...(mms ? { mms } : {}),
    });
    perGateway.set(a.gateway_id, tasks);
  }
  const answers: Answers = new Map();
  await Promise.all(
    [...perGateway].map(async ([gatewayId, tasks]) => {
      answers.set(gatewayId, await sendSmsTasks(ctx, gatewayId, tasks));
    }),
  );
  return answers;
}

/** Records every gateway's answer to its part of the claim. */
export async function recordAnswers(
  ctx: AppContext,
  claim: Claim,
  answers: Answers,
): Promise<DispatchResult> {
  const result = none();
  result.claimed = claim.assignments.length;
  const now = ctx.clock.now();
  const max = ctx.config.SMS_MAX_ATTEMPTS;
  const ended = await ctx.db.tx(async (q) => {
    const touched: Touched[] = [];
    const health = new Outcomes();
    for (const [gatewayId, answer] of answers) {
      const mine = claim.assignments.filter((a) => a.gateway_id === gatewayId);
      if (!answer.ok) {
        ctx.log.warn(
          { gatewayId, reason: answer.message, kind: answer.kind, messages: mine.length },
          'gateway did not take bulk SMS tasks',
        );
        await backOffSims(
          q,
          claim.simsByGateway.get(gatewayId) ?? [],
          new Date(now.getTime() + GATEWAY_BACKOFF_MS),
        );
        // No answer in time: the device may have the tasks. They stay claimed; when the lease runs
        // out they go to the same SIM again (a duplicate there is refused), or elsewhere once the
        // gateway counts as offline.
        if (answer.ambiguous) continue;
        const back = await requeue(
          q,
          claim.id,
          mine.map((a) => a.id),
          null,
        );
        result.requeued += back.length;
        touched.push(...back);
        continue;
      }
      const byTid = new Map(answer.outcomes.map((t) => [t.tid, t]));
      const accepted: string[] = [];
      const retry: ResultRow[] = [];
      const busy: string[] = [];
      const failed: ResultRow[] = [];
      const refusedSims: string[] = [];
      for (const a of mine) {
        const t = byTid.get(a.tid);
        if (!t) {
          // The device answered without this task: not taken; try again later.
          busy.push(a.id);
          continue;
        }
        // The driver has put the device's answer in the platform's words (gateways module).
        if (t.outcome === 'accepted') {
          accepted.push(a.id);
          health.of(a.sim_id).sent++;
        } else if (t.outcome === 'sim_cannot_send') {
          retry.push({ id: a.id, port: a.port, reason: t.deviceText });
          refusedSims.push(a.sim_id);
          health.of(a.sim_id).failed++;
          health.of(a.sim_id).simFailures++;
        } else if (t.outcome === 'device_busy' || t.outcome === 'account_refused') busy.push(a.id);
        else {
          failed.push({ id: a.id, port: a.port, reason: t.deviceText });
          health.of(a.sim_id).failed++;
        }
      }
      const key: ResultKey = { claimId: claim.id };
      const sent = await markSent(q, claim.id, accepted, now);
      await rememberConversationSims(q, sent);
      const retried = await retryOrFail(q, key, retry, max, now);
      const dead = await markFailed(q, key, failed, now);
      const later = await requeue(q, claim.id, busy, new Date(now.getTime() + BUSY_RETRY_MS));
      await backOffSims(q, refusedSims, new Date(now.getTime() + SIM_BACKOFF_MS));
      // What the device took (a fast report may already have moved some of them past 'sent').
      result.accepted += accepted.length;
      result.retried += retried.filter((t) => t.status === 'queued').length;
      result.failed += retried.filter((t) => t.status === 'failed').length + dead.length;
      result.requeued += later.length;
      touched.push(...sent, ...retried, ...dead, ...later);
    }
    // The SIMs' health last (after the messages, as the report consumer does): a SIM the device
    // refused SimLockAfterFailures times in a row is locked, and its messages go elsewhere.
    await recordSimOutcomes(ctx, q, health.list(), now);
    await announce(q, touched);
    await messagesChanged(q, ctx, touched, now);
    return endedAny(touched);
  });
  // Money back for what ended failed (after the commit; the refund job catches what a crash left).
  if (ended) await refundEndedMessages(ctx);
  return result;
}

/** Per-SIM outcomes of one batch of results, for the gateways module's SIM health. */
class Outcomes {
  private readonly bySim = new Map<string, SimOutcome>();
  of(simId: string): SimOutcome {
    let o = this.bySim.get(simId);
    if (!o) {
      o = { simId, sent: 0, delivered: 0, failed: 0, simFailures: 0 };
      this.bySim.set(simId, o);
    }
    return o;
  }
  list(): SimOutcome[] {
    return [...this.bySim.values()];
  }
}

/**
 * One campaign event per campaign touched (not one per message); a chat message (no campaign)
 * publishes its conversation instead, so an open thread shows the delivery result live.
 */
async function announce(q: Queryable, touched: Touched[]): Promise<void> {
  const seen = new Set<string>();
  for (const t of touched) {
    if (t.campaign_id === null) {
      const key = `c${t.conversation_id}`;
      if (seen.has(key)) continue;
      seen.add(key);
      await publish(q, { type: 'conversation', userId: t.user_id, conversationId: t.conversation_id });
      continue;
    }
    if (seen.has(t.campaign_id)) continue;
    seen.add(t.campaign_id);
    await publish(q, { type: 'campaign', userId: t.user_id, campaignId: t.campaign_id });
  }
}

/**
 * Report consumer: a device's send results. The carrier's acceptance marks a message sent (it then
 * waits for the handset's report); success rows deliver; a failure this
 * SIM is to blame for goes to another SIM while attempts are left; other failures are final. Rows
 * are matched by gateway and task id among messages in flight, so a repeated report changes nothing.
 */
export const recordSendReports: ReportConsumer = async (ctx, gatewayId, results: SendResult[]) => {
  const ok: ResultRow[] = [];
  const carrier: ResultRow[] = [];
  const retry: ResultRow[] = [];
  const failed: ResultRow[] = [];
  for (const r of results) {
    if (r.outcome === 'delivered') ok.push({ tid: r.tid, port: r.port });
    else if (r.outcome === 'sent') carrier.push({ tid: r.tid, port: r.port });
    else
      (r.outcome === 'sim_cannot_send' ? retry : failed).push({
        tid: r.tid,
        port: r.port,
        reason: r.deviceText,
      });
  }
  if (ok.length + carrier.length + retry.length + failed.length === 0) return;
  const now = ctx.clock.now();
  const key: ResultKey = { gatewayId };
  const ended = await ctx.db.tx(async (q) => {
    // The carrier's acceptance first: a report that carries both keeps them in order.
    const taken = await markCarrierAccepted(q, key, carrier, now);
    const delivered = await markDelivered(q, key, ok, now);
    await rememberConversationSims(q, [...taken, ...delivered]);
    const retried = await retryOrFail(q, key, retry, ctx.config.SMS_MAX_ATTEMPTS, now);
    const dead = await markFailed(q, key, failed, now);
    // Only rows that changed a message count (a repeated report changes nothing).
    const health = new Outcomes();
    for (const t of delivered) if (t.sim_id) health.of(t.sim_id).delivered++;
    for (const t of retried) {
      if (!t.sim_id) continue;
      health.of(t.sim_id).failed++;
      health.of(t.sim_id).simFailures++;
    }
    for (const t of dead) if (t.sim_id) health.of(t.sim_id).failed++;
    await recordSimOutcomes(ctx, q, health.list(), now);
    await announce(q, [...taken, ...delivered, ...retried, ...dead]);
    await messagesChanged(q, ctx, [...taken, ...delivered, ...retried, ...dead], now);
    return endedAny(retried) || dead.length > 0;
  });
  if (ended) await refundEndedMessages(ctx);
};

/** Messages a device accepted but never reported on: failed after SMS_RESULT_TIMEOUT_MINUTES. */
export async function failOverdueResults(ctx: AppContext): Promise<number> {
  const now = ctx.clock.now();
  const minutes = ctx.config.SMS_RESULT_TIMEOUT_MINUTES;
  const n = await ctx.db.tx(async (q) => {
    const done = await failOverdue(
      q,
      new Date(now.getTime() - minutes * 60_000),
      `No result from the gateway within ${minutes} minutes.`,
      now,
    );
    // A chat reply whose SIM stayed unavailable: failed rather than sent late (or from elsewhere).
    const stale = await failStalePinned(
      q,
      new Date(now.getTime() - minutes * 60_000),
      `The conversation's SIM was not available to send within ${minutes} minutes.`,
      now,
    );
    const expired = await failExpiredQueued(q, now);
    await announce(q, [...done, ...stale, ...expired]);
    await messagesChanged(q, ctx, [...done, ...stale, ...expired], now);
    return Math.max(done.length, stale.length, expired.length);
  });
  if (n > 0) await refundEndedMessages(ctx);
  return n;
}
