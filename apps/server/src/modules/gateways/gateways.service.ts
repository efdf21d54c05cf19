import { randomUUID } from 'node:crypto';
import {
  type EndpointDeclaration,
  endpointPath,
  endpoints,
  type Gateway,
  type GatewayReport,
  type GatewaySettings,
  isGatewayValid,
  isHttpUrl,
  isOnline,
  isUsableSimState,
  normalizeMac,
  normalizePhoneNumber,
  PHONE_NUMBER_MESSAGE,
  ruleMessages,
  type SetSimNumberResult,
  type Sim,
  simStateText,
} from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { randomToken, seal } from '../../crypto.ts';
import type { Queryable } from '../../db/db.ts';
import { badInput, conflict, notFound } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { type AuditActor, recordAudit } from '../audit/index.ts';
import { pullCatchUp } from './catchup.service.ts';
import { deviceUnavailable, driverFor } from './device.ts';
import { GatewayError } from './driver/driver.ts';
import {
  deleteGatewayRow,
  findGatewayCredentials,
  findGatewayRow,
  findGatewayRowByMac,
  findSimRow,
  type GatewayRow,
  insertGateway,
  listGatewayRows,
  listSimRows,
  macTakenByOther,
  type SimViewRow,
  setManualNumber,
  updateGatewayRow,
} from './gateways.queries.ts';
import { ingestIncomingSms } from './inbox.service.ts';
import { applyDevStatus } from './inventory.service.ts';
import { gatewayChanged, pushTargets } from './push-targets.ts';

/** Seconds between the device's dev-status pushes (the protocol's minimum). */
export const STATUS_PUSH_PERIOD = 60;

/** Where the device must push; the secret in the path is the only credential a push has. */
export function pushUrls(ctx: AppContext, gw: Pick<GatewayRow, 'id' | 'push_secret'>): Gateway['pushUrls'] {
  const params = { id: gw.id, secret: gw.push_secret };
  const url = (e: Pick<EndpointDeclaration, 'path'>) => `${ctx.config.PUBLIC_URL}${endpointPath(e, params)}`;
  const { devicePush } = endpoints;
  return { status: url(devicePush.status), sms: url(devicePush.sms), report: url(devicePush.report) };
}

export function toGateway(ctx: AppContext, row: GatewayRow): Gateway {
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    mac: row.mac,
    userName: row.user_name,
    isEnable: row.is_enable,
    totalSIM: row.total_sim,
    lastUpdate: row.last_update ? row.last_update.toISOString() : null,
    onlineStatus: isOnline(row.last_update, ctx.clock.now().getTime()) ? 'Online' : 'Offline',
    pushUrls: pushUrls(ctx, row),
  };
}

export function toSim(row: SimViewRow): Sim {
  return {
    port: row.port,
    iccid: row.iccid,
    imsi: row.imsi,
    number: row.number,
    numberSource: row.number_source,
    operator: row.operator,
    signal: row.signal,
    state: row.state,
    stateText: simStateText(row.state),
    usable: isUsableSimState(row.state),
    role: row.role,
    lock: {
      locked: row.locked,
      kind: row.locked ? row.lock_kind : null,
      reason: row.locked ? row.lock_reason : null,
      since: row.locked ? (row.locked_at?.toISOString() ?? null) : null,
      until: row.locked ? (row.locked_until?.toISOString() ?? null) : null,
      by: row.locked ? row.locked_by : null,
    },
    health: {
      sentToday: row.sent_today,
      sentThisMonth: row.sent_this_month,
      failed: row.failed_total,
      consecutiveFailures: row.consecutive_failures,
      received: row.received,
      rentalsToday: row.rentals_today,
      lastSuccess: row.last_success_at?.toISOString() ?? null,
      atCap: row.at_cap,
    },
  };
}

async function mustFindGateway(ctx: AppContext, id: string, q: Queryable = ctx.db): Promise<GatewayRow> {
  const row = isUuid(id) ? await findGatewayRow(q, id) : undefined;
  if (!row)
    throw notFound('Gateway not found. It may have been deleted; reload the list.', 'gateway_not_found');
  return row;
}

export async function gatewaySettings(ctx: AppContext): Promise<GatewaySettings> {
  const [rows, prices] = await Promise.all([listGatewayRows(ctx.db), ctx.registry.messagePrices(ctx)]);
  return {
    gateways: rows.map((r) => toGateway(ctx, r)),
    serverTime: ctx.clock.now().toISOString(),
    ...prices,
  };
}

/** What the audit log keeps of a gateway (never the password or the push secret). */
const gatewaySnapshot = (r: GatewayRow) => ({
  name: r.name,
  url: r.url,
  mac: r.mac,
  userName: r.user_name,
  isEnable: r.is_enable,
});

export interface GatewayInputData {
  id?: string | undefined;
  name: string;
  url: string;
  mac: string;
  userName: string;
  password?: string | undefined;
  isEnable: boolean;
}

const isUniqueViolation = (err: unknown) => (err as { code?: unknown } | null)?.code === '23505';
const macTaken = (mac: string) =>
  conflict(`Another gateway already uses the MAC address ${mac}. Each device can be added once.`, 'mac');

/**
 * Add (no id) or edit. The gateway form rules (docs/product.md#forms) on the server too; a blank password
 * keeps the stored one.
 */
export async function saveGateway(
  ctx: AppContext,
  input: GatewayInputData,
  actor?: AuditActor,
): Promise<Gateway> {
  const fields = {
    name: input.name.trim(),
    url: input.url.trim().replace(/\/+$/, ''),
    mac: normalizeMac(input.mac) ?? '',
    userName: input.userName.trim(),
    isEnable: input.isEnable,
  };
  if (!isGatewayValid({ ...fields, mac: input.mac })) {
    const field = !fields.name ? 'name' : !isHttpUrl(fields.url) ? 'url' : !fields.mac ? 'mac' : 'userName';
    throw badInput(ruleMessages.gatewayInvalid, field);
  }
  const password = input.password && input.password.trim() !== '' ? input.password : null;
  const passwordEnc = password === null ? null : seal(ctx.config.APP_SECRET, password);
  const id = input.id?.trim() || null;

  const at = ctx.clock.now();

  if (id === null) {
    if (passwordEnc === null) throw badInput('Password is required for a new gateway.', 'password');
    const row = await ctx.db.tx(async (q) => {
      const inserted = await insertGateway(q, {
        ...fields,
        passwordEnc,
        pushSecret: randomToken(24),
        createdAt: at,
      });
      if (!inserted) throw macTaken(fields.mac);
      if (actor) {
        await recordAudit(q, {
          actor,
          kind: 'gateway.create',
          targetId: inserted.id,
          targetLabel: inserted.name,
          after: gatewaySnapshot(inserted),
          at,
        });
      }
      return inserted;
    });
    ctx.log.info({ gatewayId: row.id, name: row.name, mac: row.mac }, 'gateway added');
    return toGateway(ctx, row);
  }

  const row = await ctx.db.tx(async (q) => {
    const before = await mustFindGateway(ctx, id, q);
    if (await macTakenByOther(q, fields.mac, id)) throw macTaken(fields.mac);
    let updated: GatewayRow | undefined;
    try {
      updated = await updateGatewayRow(q, id, { ...fields, passwordEnc });
    } catch (err) {
      if (isUniqueViolation(err)) throw macTaken(fields.mac);
      throw err;
    }
    if (!updated)
      throw notFound('Gateway not found. It may have been deleted; reload the list.', 'gateway_not_found');
    await gatewayChanged(q, id);
    if (actor) {
      await recordAudit(q, {
        actor,
        kind: 'gateway.update',
        targetId: id,
        targetLabel: updated.name,
        before: gatewaySnapshot(before),
        after: { ...gatewaySnapshot(updated), ...(passwordEnc !== null ? { passwordChanged: true } : {}) },
        at,
      });
    }
    return updated;
  });
  // This process at once (its own event may come a moment after the next push).
  pushTargets(ctx).forget(id);
  ctx.log.info(
    { gatewayId: row.id, name: row.name, mac: row.mac, passwordChanged: passwordEnc !== null },
    'gateway updated',
  );
  return toGateway(ctx, row);
}

/**
 * Refused while orders on it still wait for a code: they would hang on a device nobody listens
 * to. Disable the gateway instead, and delete it once they are finished. Finished orders keep
 * their history (gateway name and port are copied onto the order).
 */
export async function deleteGateway(ctx: AppContext, id: string, actor?: AuditActor): Promise<void> {
  const row = await mustFindGateway(ctx, id);
  const creds = await ctx.db.tx(async (q) => {
    for (const check of ctx.registry.gatewayDeleteChecks) {
      const why = await check(q, id);
      if (why) throw conflict(why, undefined, 'gateway_busy');
    }
    const found = await findGatewayCredentials(q, id);
    if (!(await deleteGatewayRow(q, id)))
      throw notFound('Gateway not found. It may have been deleted; reload the list.', 'gateway_not_found');
    await gatewayChanged(q, id);
    if (actor) {
      await recordAudit(q, {
        actor,
        kind: 'gateway.delete',
        targetId: id,
        targetLabel: row.name,
        before: gatewaySnapshot(row),
        at: ctx.clock.now(),
      });
    }
    return found;
  });
  pushTargets(ctx).forget(id);
  ctx.log.info({ gatewayId: id, name: row.name, mac: row.mac }, 'gateway deleted');
  // Best effort: ask the device to stop pushing to a URL that now answers 404.
  if (creds) {
    driverFor(ctx, creds)
      .subscribeStatus('', 0)
      .catch(() => {});
  }
}

/**
 * Scan: status now (SIMs, totalSIM, lastUpdate), then (re)subscribe the status push, point the
 * SMS push at us, and catch up on SMS the device holds that we have not seen.
 */
export async function scanGateway(ctx: AppContext, id: string): Promise<Gateway> {
  const row = await mustFindGateway(ctx, id);
  const creds = (await findGatewayCredentials(ctx.db, id))!;
  const driver = driverFor(ctx, creds);
  const dev = await driver.getStatus().catch((err: unknown) => deviceUnavailable(err));
  if (dev.mac !== row.mac) {
    throw conflict(
      `The device at ${row.url} reports the MAC address ${dev.mac}, not ${row.mac}. Check the URL and the MAC of this gateway.`,
      'mac',
    );
  }
  await applyDevStatus(ctx, id, dev);
  const urls = pushUrls(ctx, row);
  // The subscription may not survive a reboot, so every Scan sends it again.
  await driver
    .subscribeStatus(urls.status, STATUS_PUSH_PERIOD)
    .catch((err: unknown) => deviceUnavailable(err, 'Gateway did not accept the status push subscription'));
  try {
    await driver.configureSmsUrls({ sms: urls.sms, report: urls.report });
  } catch (err) {
    // Not every firmware takes the URLs by config command; each send request carries them too.
    if (!(err instanceof GatewayError)) throw err;
    ctx.log.warn({ gatewayId: id, reason: err.message }, 'gateway did not take the SMS push URL');
  }
  try {
    await pullCatchUp(ctx, creds, 5);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    ctx.log.warn({ gatewayId: id, reason: err.message }, 'SMS catch-up during scan failed');
  }
  return toGateway(ctx, (await findGatewayRow(ctx.db, id)) ?? row);
}

export async function gatewayReport(ctx: AppContext, id: string): Promise<GatewayReport> {
  const row = await mustFindGateway(ctx, id);
  const sims = await listSimRows(ctx.db, id, ctx.clock.now());
  return { gateway: toGateway(ctx, row), sims: sims.map(toSim) };
}

/** A gateway by MAC (any separator or case) or by id; undefined when none. */
export async function findGatewayByMacOrId(
  ctx: AppContext,
  macOrId: string,
): Promise<{ id: string; name: string; mac: string; totalSIM: number } | undefined> {
  const mac = normalizeMac(macOrId);
  const row = mac
    ? await findGatewayRowByMac(ctx.db, mac)
    : isUuid(macOrId.trim())
      ? await findGatewayRow(ctx.db, macOrId.trim())
      : undefined;
  return row && { id: row.id, name: row.name, mac: row.mac, totalSIM: row.total_sim };
}

async function mustPort(ctx: AppContext, gatewayId: string, port: string): Promise<string> {
  const creds = (await findGatewayCredentials(ctx.db, gatewayId))!;
  const ref = driverFor(ctx, creds).canonicalPort(port);
  if (!ref) throw badInput('Port must look like 1.01 (port 1, slot 1).', 'port');
  return ref;
}

/** The admin's number for a SIM: kept by ICCID (wins over the device's) and written to the device. */
export async function setSimNumber(
  ctx: AppContext,
  body: { gatewayId: string; port: string; number: string },
  actor?: AuditActor,
): Promise<SetSimNumberResult> {
  const gw = await mustFindGateway(ctx, body.gatewayId);
  const port = await mustPort(ctx, gw.id, body.port);
  const number = normalizePhoneNumber(body.number);
  if (!number) throw badInput(PHONE_NUMBER_MESSAGE, 'number');
  const sim = await findSimRow(ctx.db, gw.id, port, ctx.clock.now());
  if (!sim) throw notFound(`No SIM is known on port ${port}. Scan the gateway first.`);
  if (sim.state === 0) throw conflict(`Port ${port} has no SIM.`, 'port');
  const saved = await ctx.db.tx(async (q) => {
    const at = ctx.clock.now();
    const row = await setManualNumber(q, sim.id, sim.iccid, number, at);
    if (!row) throw notFound(`No SIM is known on port ${port}. Scan the gateway first.`);
    if (actor) {
      await recordAudit(q, {
        actor,
        kind: 'gateway.simNumber',
        targetId: gw.id,
        targetLabel: `${gw.name} ${port}`,
        before: { port, iccid: sim.iccid, number: sim.number },
        after: { port, iccid: sim.iccid, number },
        at,
      });
    }
    return row;
  });
  const view = (await findSimRow(ctx.db, gw.id, saved.port, ctx.clock.now())) ?? { ...sim, ...saved };
  const creds = (await findGatewayCredentials(ctx.db, gw.id))!;
  let deviceUpdated = true;
  let msg = `Number ${number} saved for port ${port}.`;
  try {
    await driverFor(ctx, creds).setSimNumber(port, number, creds.max_slots ?? 1);
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    deviceUpdated = false;
    msg = `Number ${number} saved for port ${port}, but the gateway did not store it: ${err.message}.`;
    ctx.log.warn({ gatewayId: gw.id, port, reason: err.message }, 'sim_number write failed');
  }
  return { code: 1, msg, sim: toSim(view), deviceUpdated };
}

/** An admin demo/test control: the same ingestion as a device push, never deduplicated away. */
export async function simulateSms(
  ctx: AppContext,
  body: { gatewayId: string; port: string; from: string; text: string },
): Promise<{ code: 1; msg: string }> {
  const gw = await mustFindGateway(ctx, body.gatewayId);
  const port = await mustPort(ctx, gw.id, body.port);
  const sender = body.from.trim();
  if (!sender) throw badInput('Enter the sender number.', 'from');
  await ingestIncomingSms(ctx, [
    {
      gatewayId: gw.id,
      port,
      isReport: false,
      ts: Math.floor(ctx.clock.now().getTime() / 1000),
      sender,
      recipient: null,
      text: body.text,
      dedupeKey: `simulated:${randomUUID()}`,
    },
  ]);
  return { code: 1, msg: `SMS received on port ${port}.` };
}
