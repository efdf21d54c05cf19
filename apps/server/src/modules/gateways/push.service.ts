// Device pushes: whatever a device sends (status, incoming SMS and MMS, send results, signs of
// life). An HTTP push carries no account, so the gateway id and secret in its URL authenticate it
// (and a device that signs its pushes is checked by its driver); a datagram names its device inside,
// by the login and password configured on the device. The gateway's driver reads each body into the
// platform's words; this file applies them, whatever the transport.
import type { AppContext, SendResult } from '../../context.ts';
import { safeEqual, unseal } from '../../crypto.ts';
import { badInput, conflict, DomainError, notFound, unauthorized } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { rememberPeer } from './datagram-ports.ts';
import { driverFor } from './device.ts';
import {
  type DatagramAddress,
  type DevicePush,
  type GatewayDriver,
  GatewayError,
  ProtocolError,
  PushRefused,
  type RawPush,
  type ReadPush,
} from './driver/driver.ts';
import { deviceKind } from './driver/registry.ts';
import {
  findGatewayLogins,
  forgetPushIdsBefore,
  type PushTarget,
  portOfNumber,
  pushIdSeen,
  recordCall,
  rememberPushId,
  touchGateway,
} from './gateways.queries.ts';
import { ingestIncomingSms } from './inbox.service.ts';
import { applyDeviceStatus, applySimStatus } from './inventory.service.ts';
import { lastSeenToWrite } from './last-seen.ts';
import { sendInFlight, settleReceipt } from './outbox.queries.ts';
import { pushTargets } from './push-targets.ts';

export interface PushSource {
  gw: PushTarget;
  driver: GatewayDriver;
}

/** 404 for an unknown gateway, 401 for a wrong secret; the caller logs which. */
export async function authenticatePush(ctx: AppContext, id: string, secret: string): Promise<PushSource> {
  const gw = isUuid(id) ? await pushTargets(ctx).get(id.toLowerCase()) : undefined;
  if (!gw) throw notFound('Unknown gateway.', 'gateway_not_found');
  if (!safeEqual(secret, gw.push_secret)) throw unauthorized('Wrong push secret for this gateway.');
  return { gw, driver: driverFor(ctx, gw) };
}

/** Largest incoming-MMS push read (files plus multipart framing and base64). */
export const MMS_PUSH_MAX_BYTES = 10 * 1024 * 1024;

/** How long a push id is remembered: longer than any signature stays fresh, so a replay is caught. */
export const PUSH_ID_MEMORY_MS = 15 * 60_000;

export interface PushResult {
  kind: DevicePush['kind'] | 'repeated';
  stored?: number;
  duplicates?: number;
  /** What to answer the device on its own transport (ReadPush.reply), also for a repeated push. */
  reply?: Buffer;
  /** Not applied yet, and not to be acknowledged: the device is to send it again. */
  unanswered?: boolean;
}

/** The driver's reading of a push: 400 when it is not the protocol, 401 when it cannot be trusted. */
function readPush(src: PushSource, raw: RawPush): ReadPush {
  try {
    return src.driver.readPush(raw);
  } catch (err) {
    if (err instanceof ProtocolError) throw badInput(`Not a valid push: ${err.message}`);
    if (err instanceof PushRefused) throw unauthorized(`Push refused: ${err.message}.`);
    // A stored signing key that cannot be read: the admin must enter it again.
    if (err instanceof GatewayError) throw unauthorized(`Push refused: ${err.message}.`);
    throw err;
  }
}

/** Reads one push with the gateway's driver and applies what it says. */
export async function handlePush(ctx: AppContext, src: PushSource, raw: RawPush): Promise<PushResult> {
  const { push, eventId, reply } = readPush(src, raw);
  const answer = reply ? { reply } : {};
  // A push the device already delivered (a replay, or a retry after our answer was lost): answered
  // again, applied once.
  if (eventId !== undefined && (await pushIdSeen(ctx.db, src.gw.id, eventId)))
    return { kind: 'repeated', ...answer };
  const from = raw.transport.kind === 'datagram' ? raw.transport.from : undefined;
  const result = await applyPush(ctx, src, push, from);
  if (result.unanswered) return result;
  if (eventId !== undefined) await rememberPushId(ctx.db, src.gw.id, eventId, ctx.clock.now());
  return { ...result, ...answer };
}

/** A datagram push: what it did, or why it was refused (then the device gets no answer at all). */
export type DatagramPushResult = PushResult | { kind: 'refused'; why: string; reply?: undefined };

/**
 * A datagram from a device of `kind`: the login inside names the gateway, the password must be
 * that gateway's; then it is read and applied like any push. A wrong or unknown login gets no
 * answer (a device must not take silence for an acknowledgement, and a prober learns nothing).
 */
export async function handleDatagramPush(
  ctx: AppContext,
  kind: string,
  raw: RawPush,
): Promise<DatagramPushResult> {
  const spec = deviceKind(ctx, kind);
  if (spec?.pushes !== 'datagram' || !spec.loginOf || !spec.gatewayOfLogin)
    return { kind: 'refused', why: 'this kind of device does not push datagrams' };
  const login = spec.loginOf(raw.body);
  if (!login) return { kind: 'refused', why: 'the datagram names no device' };
  const gatewayId = spec.gatewayOfLogin(login.login, await findGatewayLogins(ctx.db, kind));
  const gw = gatewayId ? await pushTargets(ctx).get(gatewayId) : undefined;
  if (!gw) return { kind: 'refused', why: `unknown device login ${JSON.stringify(login.login)}` };
  let password: string;
  try {
    password = unseal(ctx.config.APP_SECRET, gw.password_enc);
  } catch {
    return { kind: 'refused', why: 'the stored password of this gateway cannot be read' };
  }
  if (!safeEqual(login.password, password)) return { kind: 'refused', why: 'wrong password' };
  try {
    return await handlePush(ctx, { gw, driver: driverFor(ctx, gw) }, raw);
  } catch (err) {
    // Not the protocol, or not stored: unanswered, so the device sends it again.
    if (err instanceof DomainError) return { kind: 'refused', why: err.message };
    throw err;
  }
}

/** Send results go to every registered report consumer (messaging), whoever learned them. */
export async function reportSendResults(
  ctx: AppContext,
  gatewayId: string,
  results: SendResult[],
): Promise<void> {
  for (const consume of ctx.registry.reportConsumers) await consume(ctx, gatewayId, results);
}

async function applyPush(
  ctx: AppContext,
  src: PushSource,
  push: DevicePush,
  from: DatagramAddress | undefined,
): Promise<PushResult> {
  const gatewayId = src.gw.id;
  // Traffic pushes (SMS, MMS, reports) write lastUpdate at most once per window (last-seen.ts).
  const seenAt = () => lastSeenToWrite(ctx, gatewayId);
  switch (push.kind) {
    case 'status': {
      if (src.gw.external_id !== null && push.status.externalId !== src.gw.external_id) {
        // Another device was given this gateway's push URL: its SIMs must not land here.
        throw conflict(
          `This push comes from the device ${push.status.externalId}, not from this gateway's device ${src.gw.external_id}.`,
        );
      }
      await applyDeviceStatus(ctx, gatewayId, push.status);
      return { kind: push.kind };
    }
    case 'sim':
      await applySimStatus(ctx, gatewayId, push.sim);
      // A line that reports over datagrams is sent to where it reported from (NAT).
      if (from) rememberPeer(ctx, gatewayId, push.sim.slot, from);
      return { kind: push.kind };
    case 'sms': {
      const at = seenAt();
      const res = await ingestIncomingSms(
        ctx,
        push.items.map((i) => ({ ...i, gatewayId })),
        at ? { touch: { gatewayId, at } } : {},
      );
      return { kind: push.kind, stored: res.stored.length, duplicates: res.duplicates };
    }
    case 'mms': {
      // Stored like an SMS (its text, or "[MMS] <subject>") on the SIM whose number received it,
      // with its files handed to the SMS consumers (a chat reply keeps the picture).
      const { mms } = push;
      const port = mms.recipient ? await portOfNumber(ctx.db, gatewayId, mms.recipient) : undefined;
      const at = seenAt();
      const res = await ingestIncomingSms(
        ctx,
        [
          {
            gatewayId,
            isReport: false,
            // Unknown receiving number: kept in the inbox for admins (no SIM, so no reply routing).
            port: port ?? '',
            ts: mms.ts,
            sender: mms.sender,
            recipient: mms.recipient,
            text: mms.text || `[MMS]${mms.subject ? ` ${mms.subject}` : ''}`,
            attachments: mms.attachments,
          },
        ],
        at ? { touch: { gatewayId, at } } : {},
      );
      return { kind: push.kind, stored: res.stored.length, duplicates: res.duplicates };
    }
    case 'report': {
      const at = seenAt();
      if (at) await touchGateway(ctx.db, gatewayId, at);
      await reportSendResults(ctx, gatewayId, push.results);
      return { kind: push.kind, stored: push.results.length };
    }
    case 'receipt': {
      // The device names the SMS by its own number of it: the held send that got that number.
      const at = seenAt();
      if (at) await touchGateway(ctx.db, gatewayId, at);
      const delivered = push.outcome === 'delivered';
      const held = await settleReceipt(
        ctx.db,
        gatewayId,
        push.port,
        push.deviceRef,
        delivered,
        ctx.clock.now(),
      );
      // A report faster than the send's own result (still being recorded): left unanswered, so
      // the device sends it again in a few seconds.
      if (!held)
        return { kind: push.kind, stored: 0, unanswered: await sendInFlight(ctx.db, gatewayId, push.port) };
      await reportSendResults(ctx, gatewayId, [
        {
          tid: Number(held.tid),
          outcome: push.outcome,
          number: held.recipient,
          port: push.port,
          deviceText: push.deviceText,
        },
      ]);
      return { kind: push.kind, stored: 1 };
    }
    case 'call':
      await recordCall(ctx.db, gatewayId, push, ctx.clock.now());
      return { kind: push.kind, stored: 1 };
    case 'alive':
      await touchGateway(ctx.db, gatewayId, ctx.clock.now());
      return { kind: push.kind };
  }
}

/** The hourly clean-up: push ids older than any fresh signature. */
export async function forgetOldPushIds(ctx: AppContext): Promise<number> {
  return forgetPushIdsBefore(ctx.db, new Date(ctx.clock.now().getTime() - PUSH_ID_MEMORY_MS));
}
