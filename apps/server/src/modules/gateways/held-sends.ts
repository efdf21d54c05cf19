// Sends the platform holds for devices that take them in a session on its datagram socket (a GoIP
// box's lines): any process holds them (sendSmsTasks answers "accepted" at once); the process that
// holds the kind's socket runs them through the driver's sendHeld, at most one session per line
// and SESSIONS_PER_DEVICE per device, and reports each outcome the way a device reports its sends
// (sent, or this SIM cannot send: another SIM tries). Its delivery report comes later as a push
// that names the device's own number of the SMS (push.service.ts, `receipt`). USSD requests
// (sim-admin.service.ts) wait and run the same way, a line's request after its sends.
import type { AppContext, SendResult } from '../../context.ts';
import { runtimeKey } from '../../runtime.ts';
import { datagramAnswers, LINE_SILENT_AFTER_MS, recentPeer } from './datagram-ports.ts';
import { driverFor } from './device.ts';
import {
  type DatagramLink,
  type DatagramPort,
  GatewayError,
  type HeldResult,
  type HeldSend,
} from './driver/driver.ts';
import { deviceKind, linesReportThemselves } from './driver/registry.ts';
import { findPushTarget } from './gateways.queries.ts';
import {
  claimSends,
  claimUssd,
  dueSends,
  dueUssd,
  endSends,
  endUssd,
  type OutboxEnd,
  type OutboxRow,
  settleOrphanSends,
  type UssdRow,
} from './outbox.queries.ts';
import { reportSendResults } from './push.service.ts';

/** A device refuses a sixth session (GoIP: five per box). */
export const SESSIONS_PER_DEVICE = 5;
/** Recipients of one text in one session: a long session holds its line while others wait. */
export const RECIPIENTS_PER_SESSION = 50;
/**
 * A process that just took the socket has heard no line yet: for this long, sends to lines it has
 * not heard wait for their next keepalive rather than fail over to another SIM.
 */
export const LINE_GRACE_MS = 45_000;
/** A device too busy for a session ("device_busy") is asked again this much later, this many times. */
export const BUSY_RETRY_MS = 15_000;
export const BUSY_RETRIES = 3;
/** Held sends are kept this long after they are handed over (their delivery report comes within days). */
export const HELD_SENDS_KEEP_DAYS = 7;

export interface HeldSendsOptions {
  /** How often the queue is read when nothing wakes it (sends held by another process). */
  pollMs?: number;
}

const WAKE = runtimeKey<Map<string, () => void>>('gateways.heldSendsWake');
const wakers = (ctx: AppContext) => ctx.runtime.get(WAKE, () => new Map());

/** Tells this process's runner of a kind that sends were held (another process's is polling). */
export function wakeHeldSends(ctx: AppContext, kind: string): void {
  wakers(ctx).get(kind)?.();
}

/**
 * Runs the held sends of one kind of device through `port` until the returned function is called
 * (the listener stops holding the socket: sessions in flight end, their sends stay as they are for
 * the next holder to settle).
 */
export function startHeldSends(
  ctx: AppContext,
  kind: string,
  port: DatagramPort,
  opts: HeldSendsOptions = {},
): () => Promise<void> {
  const pollMs = opts.pollMs ?? 1000;
  const startedAt = ctx.clock.now().getTime();
  const closing = new AbortController();
  const busyLines = new Set<string>();
  const sessionsOf = new Map<string, number>();
  const running = new Set<Promise<void>>();
  let requestId = Math.floor(Math.random() * 1_000_000_000);
  let timer: NodeJS.Timeout | undefined;
  let tick: Promise<void> = Promise.resolve();
  let again = false;
  /**
   * Whether the gateway's lines report themselves (they need a recent peer, fail over when silent,
   * wait out LINE_GRACE_MS); a box read through its web pages needs none of it.
   */
  const reporting = (mode: string | null | undefined) =>
    linesReportThemselves(deviceKind(ctx, kind), mode ?? null);

  const link = (gatewayId: string): DatagramLink => ({
    port,
    peerOf: (slot) => recentPeer(ctx, gatewayId, slot, LINE_SILENT_AFTER_MS),
    newRequestId: () => {
      requestId = (requestId + 1) % 2_000_000_000;
      return requestId;
    },
    answers: (key, onAnswer) =>
      datagramAnswers(ctx).subscribe(`${kind} ${key}`, (a) => onAnswer(a.body, a.from)),
    closed: closing.signal,
  });

  const runSession = async (gatewayId: string, rows: OutboxRow[]) => {
    const target = await findPushTarget(ctx.db, gatewayId);
    const sends: HeldSend[] = rows.map((r) => ({
      tid: Number(r.tid),
      to: r.recipient,
      sms: r.body,
      from: r.port,
    }));
    const settle = (results: HeldResult[]) => finish(ctx, gatewayId, rows, results);
    if (!target) return settle(sends.map((s) => failed(s.tid, 'the gateway was deleted')));
    await driverFor(ctx, target).sendHeld!(sends, link(gatewayId), settle);
  };

  const start = (gatewayId: string, rows: OutboxRow[]) =>
    occupy(gatewayId, rows[0]!.port, () => runSession(gatewayId, rows), 'held sends');

  const runUssd = async (r: UssdRow) => {
    const target = await findPushTarget(ctx.db, r.gateway_id);
    let answered = false;
    let text = 'the gateway was deleted';
    if (target) {
      try {
        text = await driverFor(ctx, target).ussd!(r.port, r.code, link(r.gateway_id));
        answered = true;
      } catch (err) {
        if (!(err instanceof GatewayError)) throw err;
        text = err.message;
      }
    }
    await endUssd(ctx.db, r.id, answered, text, ctx.clock.now());
  };

  /** Runs `work` on a line, counted as one of its device's sessions. */
  const occupy = (gatewayId: string, port: string, work: () => Promise<void>, what: string) => {
    const line = `${gatewayId} ${port}`;
    busyLines.add(line);
    sessionsOf.set(gatewayId, (sessionsOf.get(gatewayId) ?? 0) + 1);
    const p = work()
      .catch((err) => ctx.log.error({ err, gatewayId, port }, `${what} failed`))
      .finally(() => {
        busyLines.delete(line);
        sessionsOf.set(gatewayId, (sessionsOf.get(gatewayId) ?? 1) - 1);
        running.delete(p);
        wake();
      });
    running.add(p);
  };

  const ussdOnce = async (now: Date) => {
    for (const r of await dueUssd(ctx.db, kind, 50)) {
      if (busyLines.has(`${r.gateway_id} ${r.port}`)) continue;
      if ((sessionsOf.get(r.gateway_id) ?? 0) >= SESSIONS_PER_DEVICE) continue;
      if (
        reporting(r.mode) &&
        !recentPeer(ctx, r.gateway_id, r.port, LINE_SILENT_AFTER_MS) &&
        now.getTime() - startedAt < LINE_GRACE_MS
      )
        continue;
      if (await claimUssd(ctx.db, r.id, now)) occupy(r.gateway_id, r.port, () => runUssd(r), 'USSD');
    }
  };

  const once = async () => {
    const now = ctx.clock.now();
    await ussdOnce(now);
    const due = await dueSends(ctx.db, kind, now, 500);
    const groups = new Map<string, OutboxRow[]>();
    const unheard: OutboxRow[] = [];
    const graceOver = now.getTime() - startedAt >= LINE_GRACE_MS;
    for (const r of due) {
      const line = `${r.gateway_id} ${r.port}`;
      if (busyLines.has(line)) continue;
      if (reporting(r.mode) && !recentPeer(ctx, r.gateway_id, r.port, LINE_SILENT_AFTER_MS)) {
        if (graceOver) unheard.push(r);
        continue;
      }
      const group = groups.get(line);
      if (!group) {
        const open = (sessionsOf.get(r.gateway_id) ?? 0) + countOf(groups, r.gateway_id);
        if (open < SESSIONS_PER_DEVICE) groups.set(line, [r]);
      } else if (group[0]!.body === r.body && group.length < RECIPIENTS_PER_SESSION) group.push(r);
    }
    /** The rows this process took (none another took meanwhile). */
    const claim = async (rows: OutboxRow[]) => {
      const taken = new Set(
        await claimSends(
          ctx.db,
          rows.map((r) => r.id),
          now,
        ),
      );
      return rows.filter((r) => taken.has(r.id));
    };
    for (const rows of groups.values()) {
      const mine = await claim(rows);
      if (mine.length) start(mine[0]!.gateway_id, mine);
    }
    // A line no keepalive has come from lately cannot send: another SIM tries these.
    for (const [gatewayId, rows] of byGateway(unheard)) {
      const mine = await claim(rows);
      await finish(
        ctx,
        gatewayId,
        mine,
        mine.map((r) => ({ ...failed(Number(r.tid), 'the line has not reported in lately') })),
      );
    }
  };

  const loop = () => {
    tick = (async () => {
      do {
        again = false;
        try {
          await once();
        } catch (err) {
          ctx.log.warn({ err, kind }, 'reading held sends failed; trying again');
        }
      } while (again && !closing.signal.aborted);
      if (!closing.signal.aborted) timer = setTimeout(loop, pollMs);
    })();
  };
  const wake = () => {
    if (closing.signal.aborted) return;
    again = true;
    if (timer) {
      clearTimeout(timer);
      timer = undefined;
      loop();
    }
  };

  wakers(ctx).set(kind, wake);
  tick = settleOrphans(ctx, kind).then(loop, (err) => {
    ctx.log.warn({ err, kind }, 'settling sends of a previous holder failed');
    loop();
  });
  return async () => {
    if (wakers(ctx).get(kind) === wake) wakers(ctx).delete(kind);
    closing.abort();
    clearTimeout(timer);
    await tick;
    await Promise.allSettled([...running]);
  };
}

const countOf = (groups: Map<string, OutboxRow[]>, gatewayId: string) =>
  [...groups.values()].filter((g) => g[0]!.gateway_id === gatewayId).length;

function byGateway(rows: OutboxRow[]): Map<string, OutboxRow[]> {
  const m = new Map<string, OutboxRow[]>();
  for (const r of rows) m.set(r.gateway_id, [...(m.get(r.gateway_id) ?? []), r]);
  return m;
}

const failed = (tid: number, deviceText: string): HeldResult => ({
  tid,
  outcome: 'sim_cannot_send',
  confirmed: true,
  deviceRef: null,
  deviceText,
});

/** A previous holder's sessions: their sends count as sent, unconfirmed, and are reported so. */
async function settleOrphans(ctx: AppContext, kind: string): Promise<void> {
  const rows = await settleOrphanSends(ctx.db, kind, ctx.clock.now());
  for (const [gatewayId, mine] of byGateway(rows)) {
    await reportSendResults(
      ctx,
      gatewayId,
      mine.map((r) => ({
        tid: Number(r.tid),
        outcome: 'sent',
        number: r.recipient,
        port: r.port,
        deviceText: 'the server stopped during the send',
      })),
    );
  }
}

/**
 * How each held send ended, in the platform's words: accepted is sent (its delivery report may
 * follow); this SIM cannot send (or the device refused the account) goes to another SIM; a
 * recipient the device refused fails; a busy device is asked again later, BUSY_RETRIES times.
 * A send with no result (the session was cut short) stays as it is.
 */
async function finish(ctx: AppContext, gatewayId: string, rows: OutboxRow[], results: HeldResult[]) {
  const now = ctx.clock.now();
  const byTid = new Map(results.map((r) => [String(r.tid), r]));
  const ends: OutboxEnd[] = [];
  const reports: SendResult[] = [];
  for (const row of rows) {
    const r = byTid.get(row.tid);
    if (!r) continue;
    const report = (outcome: SendResult['outcome']) =>
      reports.push({
        tid: Number(row.tid),
        outcome,
        number: row.recipient,
        port: row.port,
        deviceText: r.deviceText,
      });
    switch (r.outcome) {
      case 'accepted':
        ends.push({ id: row.id, state: 'sent', deviceRef: r.deviceRef, deviceText: r.deviceText });
        report('sent');
        break;
      case 'device_busy':
        if (row.attempts < BUSY_RETRIES) {
          ends.push({
            id: row.id,
            state: 'queued',
            notBefore: new Date(now.getTime() + BUSY_RETRY_MS),
            deviceText: r.deviceText,
          });
          break;
        }
        ends.push({ id: row.id, state: 'failed', deviceText: r.deviceText });
        report('sim_cannot_send');
        break;
      case 'recipient_refused':
        ends.push({ id: row.id, state: 'failed', deviceText: r.deviceText });
        report('failed');
        break;
      default:
        ends.push({ id: row.id, state: 'failed', deviceText: r.deviceText });
        report('sim_cannot_send');
    }
  }
  await endSends(ctx.db, ends, now);
  if (reports.length) await reportSendResults(ctx, gatewayId, reports);
}
