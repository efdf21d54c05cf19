// Sending SMS through a gateway's driver, for the messaging module: one request carries many tasks.
import type { AppContext } from '../../context.ts';
import { driverFor } from './device.ts';
import { GatewayError, type GatewayErrorKind, type SendTask, type TaskOutcome } from './driver/driver.ts';
import { deviceKind } from './driver/registry.ts';
import { findPushTarget } from './gateways.queries.ts';
import { pushUrls } from './gateways.service.ts';
import { wakeHeldSends } from './held-sends.ts';
import { type HoldSend, holdSends } from './outbox.queries.ts';

export type SendTasksResult =
  | { ok: true; outcomes: TaskOutcome[] }
  | {
      ok: false;
      kind: GatewayErrorKind | 'gone';
      /**
       * True when the device may have taken the tasks anyway (no answer in time): the caller must
       * not hand them to another device before this one had its chance.
       */
      ambiguous: boolean;
      message: string;
    };

/**
 * Hands send tasks to one gateway (its push URLs go along, for a device that takes them with each
 * request). A device that cannot be reached is an answer, not a throw.
 */
export async function sendSmsTasks(
  ctx: AppContext,
  gatewayId: string,
  tasks: SendTask[],
): Promise<SendTasksResult> {
  const gw = await findPushTarget(ctx.db, gatewayId);
  if (!gw) return { ok: false, kind: 'gone', ambiguous: false, message: 'the gateway was deleted' };
  if (deviceKind(ctx, gw.driver)?.sends === 'held') return holdTasks(ctx, gatewayId, gw.driver, tasks);
  const urls = pushUrls(ctx, gw);
  try {
    const outcomes = await driverFor(ctx, gw).sendTasks(tasks, urls);
    return { ok: true, outcomes };
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    return { ok: false, kind: err.kind, ambiguous: err.kind === 'timeout', message: err.message };
  }
}

/**
 * A device whose sends the platform holds (held-sends.ts): each SMS task is kept for the process
 * that holds the device's socket, and taken at once. A task without a SIM or with files cannot be
 * held: the device sends SMS from the SIM the platform chose.
 */
async function holdTasks(
  ctx: AppContext,
  gatewayId: string,
  kind: string,
  tasks: SendTask[],
): Promise<SendTasksResult> {
  const outcomes: TaskOutcome[] = [];
  const held: HoldSend[] = [];
  for (const t of tasks) {
    if (t.from === undefined || t.mms) {
      outcomes.push({
        tid: t.tid,
        outcome: 'recipient_refused',
        deviceText: 'this device sends SMS from a chosen SIM only',
      });
      continue;
    }
    held.push({ tid: t.tid, port: t.from, recipient: t.to, body: t.sms });
    outcomes.push({ tid: t.tid, outcome: 'accepted', deviceText: '' });
  }
  await holdSends(ctx.db, gatewayId, held, ctx.clock.now());
  wakeHeldSends(ctx, kind);
  return { ok: true, outcomes };
}
