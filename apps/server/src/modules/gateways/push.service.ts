// Device pushes: status (dev-status, port-status), incoming SMS, send reports. They carry no
// credentials, so the gateway id and secret in the URL are what authenticates them.
import type { AppContext } from '../../context.ts';
import { safeEqual } from '../../crypto.ts';
import { badInput, conflict, notFound, unauthorized } from '../../http/errors.ts';
import { ingestIncomingSms } from '../inbox/inbox.service.ts';
import { ProtocolError } from './driver/driver.ts';
import { parseDevStatus, parsePortEntry, parseRecvSms, parseStatusReport } from './driver/ejoin.parse.ts';
import { findGatewayRow, type GatewayRow, touchGateway } from './gateways.queries.ts';
import { applyDevStatus, applyPortStatus } from './inventory.service.ts';
import { handleStatusReport } from './reports.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (id: string) => UUID.test(id);

/** 404 for an unknown gateway, 401 for a wrong secret; the caller logs which. */
export async function authenticatePush(ctx: AppContext, id: string, secret: string): Promise<GatewayRow> {
  const gw = isUuid(id) ? await findGatewayRow(ctx.db, id) : undefined;
  if (!gw) throw notFound('Unknown gateway.');
  if (!safeEqual(secret, gw.push_secret)) throw unauthorized('Wrong push secret for this gateway.');
  return gw;
}

function asObject(body: unknown): Record<string, unknown> {
  let v = body;
  if (typeof v === 'string') {
    try {
      v = JSON.parse(v);
    } catch {
      throw badInput('The push body is not JSON.');
    }
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw badInput('The push body is not a JSON object.');
  return v as Record<string, unknown>;
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
export async function handleStatusPush(ctx: AppContext, gw: GatewayRow, body: unknown): Promise<string> {
  const obj = asObject(body);
  const isPort = obj.type === 'port-status' || (obj.type === undefined && 'port' in obj && !('mac' in obj));
  if (isPort) {
    const entry = protocol(() => parsePortEntry(obj));
    await applyPortStatus(ctx, gw.id, entry);
    return 'port-status';
  }
  const dev = protocol(() => parseDevStatus(obj));
  if (dev.mac !== gw.mac) {
    // Another device was given this gateway's push URL: its SIMs must not land here.
    throw conflict(`This push comes from MAC ${dev.mac}, not from the gateway's MAC ${gw.mac}.`);
  }
  await applyDevStatus(ctx, gw.id, dev);
  return 'dev-status';
}

export async function handleSmsPush(
  ctx: AppContext,
  gw: GatewayRow,
  body: unknown,
  query: Record<string, string | undefined>,
): Promise<{ stored: number; duplicates: number }> {
  const items = protocol(() => parseRecvSms(body, query));
  await touchGateway(ctx.db, gw.id, ctx.clock.now());
  const res = await ingestIncomingSms(
    ctx,
    items.map((i) => ({ ...i, gatewayId: gw.id })),
  );
  return { stored: res.stored.length, duplicates: res.duplicates };
}

export async function handleReportPush(ctx: AppContext, gw: GatewayRow, body: unknown): Promise<number> {
  const report = protocol(() => parseStatusReport(asObject(body)));
  await touchGateway(ctx.db, gw.id, ctx.clock.now());
  await handleStatusReport(ctx, gw.id, report);
  return report.reports.length;
}
