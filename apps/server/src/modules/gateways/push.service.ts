// Device pushes: status (dev-status, port-status), incoming SMS, send reports. They carry no
// credentials, so the gateway id and secret in the URL are what authenticates them. The gateway's
// driver reads the bodies.
import type { AppContext } from '../../context.ts';
import { safeEqual } from '../../crypto.ts';
import { badInput, conflict, notFound, unauthorized } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { driverFor } from './device.ts';
import { type GatewayDriver, ProtocolError } from './driver/driver.ts';
import { type PushTarget, portOfNumber, touchGateway } from './gateways.queries.ts';
import { ingestIncomingSms } from './inbox.service.ts';
import { applyDevStatus, applyPortStatus } from './inventory.service.ts';
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

function protocol<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof ProtocolError) throw badInput(`Not a valid push: ${err.message}`);
    throw err;
  }
}

/** dev-status (full inventory) or port-status (one slot). */
export async function handleStatusPush(ctx: AppContext, src: PushSource, body: unknown): Promise<string> {
  const push = protocol(() => src.driver.parseStatusPush(body));
  if (push.kind === 'port-status') {
    await applyPortStatus(ctx, src.gw.id, push.entry);
    return push.kind;
  }
  if (push.dev.mac !== src.gw.mac) {
    // Another device was given this gateway's push URL: its SIMs must not land here.
    throw conflict(`This push comes from MAC ${push.dev.mac}, not from the gateway's MAC ${src.gw.mac}.`);
  }
  await applyDevStatus(ctx, src.gw.id, push.dev);
  return push.kind;
}

export async function handleSmsPush(
  ctx: AppContext,
  src: PushSource,
  body: unknown,
  query: Record<string, string | undefined>,
): Promise<{ stored: number; duplicates: number }> {
  const items = protocol(() => src.driver.parseSmsPush(body, query));
  const res = await ingestIncomingSms(
    ctx,
    items.map((i) => ({ ...i, gatewayId: src.gw.id })),
    { touch: { gatewayId: src.gw.id, at: ctx.clock.now() } },
  );
  return { stored: res.stored.length, duplicates: res.duplicates };
}

/** Largest incoming-MMS push read (files plus multipart framing and base64). */
export const MMS_PUSH_MAX_BYTES = 10 * 1024 * 1024;

/**
 * An incoming MMS: stored like an SMS (its text, or "[MMS] <subject>") on the port of the SIM whose
 * number received it, with its files handed to the SMS consumers (a chat reply keeps the picture).
 */
export async function handleMmsPush(
  ctx: AppContext,
  src: PushSource,
  headers: Record<string, string | undefined>,
  body: Uint8Array,
): Promise<{ stored: number; duplicates: number }> {
  const mms = protocol(() => src.driver.parseMmsPush(headers, body));
  const touch = { gatewayId: src.gw.id, at: ctx.clock.now() };
  const port = mms.recipient ? await portOfNumber(ctx.db, src.gw.id, mms.recipient) : undefined;
  const text = mms.text || `[MMS]${mms.subject ? ` ${mms.subject}` : ''}`;
  const res = await ingestIncomingSms(
    ctx,
    [
      {
        gatewayId: src.gw.id,
        isReport: false,
        // Unknown receiving number: kept in the inbox for admins (no SIM, so no reply routing).
        port: port ?? '0.00',
        ts: mms.ts,
        sender: mms.sender,
        recipient: mms.recipient,
        text,
        attachments: mms.attachments,
      },
    ],
    { touch },
  );
  return { stored: res.stored.length, duplicates: res.duplicates };
}

/** Send results go to every registered report consumer (messaging), after lastUpdate is set. */
export async function handleReportPush(ctx: AppContext, src: PushSource, body: unknown): Promise<number> {
  const report = protocol(() => src.driver.parseReportPush(body));
  await touchGateway(ctx.db, src.gw.id, ctx.clock.now());
  for (const consume of ctx.registry.reportConsumers) await consume(ctx, src.gw.id, report.results);
  return report.results.length;
}
