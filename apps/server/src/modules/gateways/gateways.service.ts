import { randomUUID } from 'node:crypto';
import {
  type DeviceKind,
  type EndpointDeclaration,
  endpointPath,
  endpoints,
  type Gateway,
  type GatewayMode,
  type GatewayReport,
  type GatewaySettings,
  type GoipMode,
  gatewayFormProblem,
  isOnline,
  isUsableSimState,
  normalizeMac,
  normalizePhoneNumber,
  PHONE_MODE_DEFAULT_URL,
  PHONE_NUMBER_MESSAGE,
  type PhoneMode,
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
import { effectiveOrigin } from '../catalogue/index.ts';
import { pullCatchUp } from './catchup.service.ts';
import { datagramPorts } from './datagram-ports.ts';
import { deviceUnavailable, driverFor } from './device.ts';
import { type DeviceStatus, GatewayError, type PushUrls } from './driver/driver.ts';
import { deviceKind, isDeviceKind } from './driver/registry.ts';
import {
  deleteGatewayRow,
  deviceTakenByOther,
  findGatewayCredentials,
  findGatewayRow,
  findGatewayRowByDevice,
  findGatewayRowByMac,
  findSimRow,
  type GatewayRow,
  insertGateway,
  learnExternalId,
  listGatewayRows,
  listSimRows,
  type SimViewRow,
  setManualNumber,
  updateGatewayRow,
} from './gateways.queries.ts';
import { ingestIncomingSms } from './inbox.service.ts';
import { applyDeviceStatus } from './inventory.service.ts';
import { gatewayChanged, pushTargets } from './push-targets.ts';

/** Where the device must push; the secret in the path is the only credential a push has. */
export function pushUrls(ctx: AppContext, gw: Pick<GatewayRow, 'id' | 'push_secret'>): PushUrls {
  const params = { id: gw.id, secret: gw.push_secret };
  const url = (e: Pick<EndpointDeclaration, 'path'>) => `${ctx.config.PUBLIC_URL}${endpointPath(e, params)}`;
  const { devicePush } = endpoints;
  return {
    base: url(devicePush.base),
    status: url(devicePush.status),
    sms: url(devicePush.sms),
    report: url(devicePush.report),
  };
}

const isPhoneMode = (m: string | null): m is PhoneMode => m === 'local' || m === 'cloud' || m === 'private';
const isGoipMode = (m: string | null): m is GoipMode => m === 'udp' || m === 'web';

/** The stored mode as the API shows it: a phone's, a GoIP box's (udp when none is stored), else null. */
function modeOf(row: Pick<GatewayRow, 'driver' | 'mode'>): GatewayMode | null {
  if (row.driver === 'smsgate') return isPhoneMode(row.mode) ? row.mode : null;
  if (row.driver === 'goip') return isGoipMode(row.mode) ? row.mode : 'udp';
  return null;
}

/** Where a device that connects to the platform (datagrams) is pointed: the public host and the kind's port. */
function deviceServer(ctx: AppContext, kind: DeviceKind): Gateway['deviceServer'] {
  if (deviceKind(ctx, kind)?.pushes !== 'datagram') return null;
  const bound = datagramPorts(ctx).get(kind)?.localPort;
  return { host: new URL(ctx.config.PUBLIC_URL).hostname, port: bound ?? ctx.config.GOIP_UDP_PORT };
}

const kindOf = (driver: string): DeviceKind => (isDeviceKind(driver) ? driver : 'ejoin');

export function toGateway(ctx: AppContext, row: GatewayRow): Gateway {
  const kind = kindOf(row.driver);
  return {
    id: row.id,
    name: row.name,
    url: row.url,
    mac: row.mac ?? '',
    userName: row.user_name,
    isEnable: row.is_enable,
    totalSIM: row.total_sim,
    lastUpdate: row.last_update ? row.last_update.toISOString() : null,
    onlineStatus: isOnline(row.last_update, ctx.clock.now().getTime()) ? 'Online' : 'Offline',
    pushUrls: pushUrls(ctx, row),
    kind,
    mode: modeOf(row),
    deviceId: row.external_id,
    model: row.model,
    hasSigningKey: row.has_signing_key,
    webUser: row.web_user,
    hasWebPassword: row.has_web_password,
    deviceServer: deviceServer(ctx, kind),
    canUssd: deviceKind(ctx, kind)?.can.ussd ?? false,
  };
}

export function toSim(row: SimViewRow, defaultCountry: string): Sim {
  return {
    port: row.port,
    iccid: row.iccid,
    imsi: row.imsi,
    number: row.number,
    numberSource: row.number_source,
    operator: row.operator,
    signal: row.signal,
    state: row.state,
    stateText: simStateText(row.state, row.device_state),
    // A locked SIM is not usable whatever its state: it takes no rental and sends nothing.
    usable: isUsableSimState(row.state) && !row.locked,
    origin: effectiveOrigin(
      {
        imsi: row.imsi,
        operator: row.operator,
        iccid: row.iccid,
        number: row.number,
        countryOverride: row.country_override,
        operatorOverride: row.operator_override,
      },
      defaultCountry,
    ),
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
    ussd:
      row.ussd_code !== null && row.ussd_reply !== null && row.ussd_at !== null
        ? { code: row.ussd_code, reply: row.ussd_reply, at: row.ussd_at.toISOString() }
        : null,
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

/** What the audit log keeps of a gateway (never the password, the signing key or the push secret). */
const gatewaySnapshot = (r: GatewayRow) => ({
  name: r.name,
  url: r.url,
  ...(r.driver === 'ejoin' ? { mac: r.mac } : { kind: r.driver, mode: r.mode, deviceId: r.external_id }),
  ...(r.driver === 'goip' ? { webUser: r.web_user } : {}),
  userName: r.user_name,
  isEnable: r.is_enable,
});

export interface GatewayInputData {
  id?: string | undefined;
  name: string;
  url: string;
  mac?: string | undefined;
  userName: string;
  password?: string | undefined;
  isEnable: boolean;
  kind?: DeviceKind | undefined;
  mode?: GatewayMode | undefined;
  deviceId?: string | undefined;
  signingKey?: string | undefined;
  webUser?: string | undefined;
  webPassword?: string | undefined;
}

const isUniqueViolation = (err: unknown) => (err as { code?: unknown } | null)?.code === '23505';
const deviceTaken = (kind: string, externalId: string) =>
  kind === 'ejoin'
    ? conflict(
        `Another gateway already uses the MAC address ${externalId}. Each device can be added once.`,
        'mac',
      )
    : kind === 'goip'
      ? conflict(
          `Another GoIP box already has the ID ${externalId}. Give each box its own ID (on the box and here).`,
          'userName',
        )
      : conflict(
          `Another gateway already is the phone with the device ID ${externalId}. Each device can be added once.`,
          'deviceId',
        );

const blankToNull = (v: string | undefined) => (v && v.trim() !== '' ? v.trim() : null);

/** The stored fields of a gateway form, by device kind; 400 naming the first bad field. */
function gatewayFields(input: GatewayInputData) {
  const kind = input.kind ?? 'ejoin';
  const phone = kind === 'smsgate';
  const box = kind === 'ejoin';
  const goip = kind === 'goip';
  const mac = box ? (normalizeMac(input.mac ?? '') ?? '') : null;
  const problem = gatewayFormProblem({
    name: input.name,
    url: input.url,
    mac: input.mac ?? '',
    userName: input.userName,
    kind,
    mode: input.mode,
    webUser: input.webUser,
  });
  if (problem === 'mode' && input.mode !== undefined) throw badInput(modeMismatch(kind), 'mode');
  if (problem) throw badInput(ruleMessages.gatewayInvalid, problem);
  const mode = phone ? (input.mode ?? null) : goip ? (input.mode ?? 'udp') : null;
  const phoneMode = phone && isPhoneMode(mode) ? mode : null;
  const url =
    input.url.trim().replace(/\/+$/, '') || (phoneMode ? (PHONE_MODE_DEFAULT_URL[phoneMode] ?? '') : '');
  return {
    kind,
    fields: {
      name: input.name.trim(),
      url,
      mac,
      userName: input.userName.trim(),
      isEnable: input.isEnable,
      // An Ejoin box is its MAC; a GoIP box its ID (its lines log in with it); a phone's id may be
      // entered, or learned at its first Scan.
      externalId: box ? mac : phone ? blankToNull(input.deviceId) : input.userName.trim(),
      mode,
      webUser: goip ? blankToNull(input.webUser) : null,
    },
  };
}

/** Why a mode was refused: it belongs to another kind of device. */
function modeMismatch(kind: DeviceKind): string {
  if (kind === 'goip')
    return "A GoIP box's connection is udp (its lines connect to SimDock) or web (SimDock uses the box's web pages); local, cloud and private are a phone's modes.";
  if (kind === 'smsgate')
    return "A phone's mode is local, cloud or private; udp and web are a GoIP box's connections.";
  return 'An Ejoin box has no mode: leave it out.';
}

/**
 * Add (no id) or edit. The gateway form rules (docs/product.md#forms) on the server too; a blank
 * password or signing key keeps the stored one. The device kind of a saved gateway does not change.
 */
export async function saveGateway(
  ctx: AppContext,
  input: GatewayInputData,
  actor?: AuditActor,
): Promise<Gateway> {
  const { kind, fields } = gatewayFields(input);
  const password = input.password && input.password.trim() !== '' ? input.password : null;
  const passwordEnc = password === null ? null : seal(ctx.config.APP_SECRET, password);
  const signingKey = kind === 'smsgate' ? blankToNull(input.signingKey) : null;
  const webPassword = kind === 'goip' && input.webPassword ? input.webPassword : null;
  const webPasswordEnc = webPassword === null ? null : seal(ctx.config.APP_SECRET, webPassword);
  const id = input.id?.trim() || null;
  const webPasswordMissing = () =>
    badInput(
      "Enter the password of the box's web login: in web mode SimDock reads and sends through the box's web pages.",
      'webPassword',
    );

  const at = ctx.clock.now();

  if (id === null) {
    if (passwordEnc === null) throw badInput('Password is required for a new gateway.', 'password');
    if (fields.mode === 'web' && webPasswordEnc === null) throw webPasswordMissing();
    if (kind === 'smsgate' && signingKey === null && fields.mode !== 'local') {
      throw badInput(
        "Enter the phone's signing key (in the app: Settings → Webhooks → Signing Key): SimDock checks every webhook with it.",
        'signingKey',
      );
    }
    // A Local phone takes the key SimDock sets through its API at the first Scan.
    const key = signingKey ?? (kind === 'smsgate' ? randomToken(16) : null);
    const row = await ctx.db.tx(async (q) => {
      const inserted = await insertGateway(q, {
        ...fields,
        driver: kind,
        passwordEnc,
        signingKeyEnc: key === null ? null : seal(ctx.config.APP_SECRET, key),
        webPasswordEnc,
        pushSecret: randomToken(24),
        createdAt: at,
      });
      if (!inserted) throw deviceTaken(kind, fields.externalId ?? '');
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
    ctx.log.info({ gatewayId: row.id, name: row.name, kind, deviceId: row.external_id }, 'gateway added');
    return toGateway(ctx, row);
  }

  const row = await ctx.db.tx(async (q) => {
    const before = await mustFindGateway(ctx, id, q);
    if (before.driver !== kind) {
      throw badInput('The device kind of a gateway cannot change: add the device as a new gateway.', 'kind');
    }
    // The key SimDock made for a Local phone is not the one the phone signs with through a server:
    // leaving Local mode needs the phone's own key, or every webhook would be refused.
    if (kind === 'smsgate' && before.mode === 'local' && fields.mode !== 'local' && signingKey === null) {
      throw badInput(
        "Enter the phone's signing key (in the app: Settings → Webhooks → Signing Key) when leaving Local mode: SimDock checks every webhook with it.",
        'signingKey',
      );
    }
    if (fields.mode === 'web' && webPasswordEnc === null && !before.has_web_password)
      throw webPasswordMissing();
    if (fields.externalId !== null && (await deviceTakenByOther(q, kind, fields.externalId, id))) {
      throw deviceTaken(kind, fields.externalId);
    }
    let updated: GatewayRow | undefined;
    try {
      updated = await updateGatewayRow(q, id, {
        ...fields,
        passwordEnc,
        signingKeyEnc: signingKey === null ? null : seal(ctx.config.APP_SECRET, signingKey),
        webPasswordEnc,
      });
    } catch (err) {
      if (isUniqueViolation(err)) throw deviceTaken(kind, fields.externalId ?? '');
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
        after: {
          ...gatewaySnapshot(updated),
          ...(passwordEnc !== null ? { passwordChanged: true } : {}),
          ...(signingKey !== null ? { signingKeyChanged: true } : {}),
          ...(webPassword !== null ? { webPasswordChanged: true } : {}),
        },
        at,
      });
    }
    return updated;
  });
  // This process at once (its own event may come a moment after the next push).
  pushTargets(ctx).forget(id);
  ctx.log.info(
    { gatewayId: row.id, name: row.name, kind, passwordChanged: passwordEnc !== null },
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
  ctx.log.info({ gatewayId: id, name: row.name, kind: row.driver }, 'gateway deleted');
  // Best effort: ask the device to stop pushing to a URL that now answers 404.
  if (creds) {
    driverFor(ctx, creds)
      .disconnect(pushUrls(ctx, row))
      .catch(() => {});
  }
}

/** The device a Scan reached must be this gateway's device; a phone added without its id learns it. */
async function checkDeviceIdentity(ctx: AppContext, row: GatewayRow, dev: DeviceStatus): Promise<void> {
  if (row.external_id === null) {
    if (!(await learnExternalId(ctx.db, row.id, dev.externalId)))
      throw deviceTaken(row.driver, dev.externalId);
    await gatewayChanged(ctx.db, row.id);
    pushTargets(ctx).forget(row.id);
    return;
  }
  if (dev.externalId === row.external_id) return;
  if (row.driver === 'ejoin') {
    throw conflict(
      `The device at ${row.url} reports the MAC address ${dev.externalId}, not ${row.external_id}. Check the URL and the MAC of this gateway.`,
      'mac',
    );
  }
  throw conflict(
    `The account at ${row.url} answered for the phone ${dev.externalId}, not ${row.external_id}. Check the Device ID of this gateway.`,
    'deviceId',
  );
}

/**
 * Scan: status now (SIMs, totalSIM, lastUpdate), then point the device's pushes at us again (a
 * device may forget after a reboot), and catch up on SMS the device holds that we have not seen.
 */
export async function scanGateway(ctx: AppContext, id: string): Promise<Gateway> {
  const row = await mustFindGateway(ctx, id);
  const creds = (await findGatewayCredentials(ctx.db, id))!;
  const driver = driverFor(ctx, creds);
  const dev = await driver.getStatus().catch((err: unknown) => deviceUnavailable(err));
  await checkDeviceIdentity(ctx, row, dev);
  await applyDeviceStatus(ctx, id, dev);
  const connected = await driver
    .connect(pushUrls(ctx, row))
    .catch((err: unknown) => deviceUnavailable(err, 'Gateway did not accept the push settings'));
  for (const warning of connected.warnings) ctx.log.warn({ gatewayId: id, reason: warning }, 'gateway setup');
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
  return { gateway: toGateway(ctx, row), sims: sims.map((r) => toSim(r, ctx.config.DEFAULT_COUNTRY)) };
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
  return row && { id: row.id, name: row.name, mac: row.mac ?? '', totalSIM: row.total_sim };
}

/** A gateway by its device (driver and the device's own id); undefined when none. */
export async function findGatewayByDevice(
  ctx: AppContext,
  kind: string,
  externalId: string,
): Promise<{ id: string; name: string } | undefined> {
  const row = await findGatewayRowByDevice(ctx.db, kind, externalId);
  return row && { id: row.id, name: row.name };
}

async function mustPort(ctx: AppContext, gatewayId: string, port: string): Promise<string> {
  const creds = (await findGatewayCredentials(ctx.db, gatewayId))!;
  const driver = driverFor(ctx, creds);
  const ref = driver.canonicalSlot(port);
  if (!ref) throw badInput(driver.slotHint, 'port');
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
  if (sim.state === 'empty') throw conflict(`Port ${port} has no SIM.`, 'port');
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
  const driver = driverFor(ctx, creds);
  let msg = `Number ${number} saved for port ${port}.`;
  // A device that keeps no numbers (a phone) is not "not updated": the platform keeps it.
  if (!driver.setSimNumber)
    return { code: 1, msg, sim: toSim(view, ctx.config.DEFAULT_COUNTRY), deviceUpdated: false };
  let deviceUpdated = true;
  try {
    await driver.setSimNumber(port, number, { maxSlots: creds.max_slots });
  } catch (err) {
    if (!(err instanceof GatewayError)) throw err;
    deviceUpdated = false;
    msg = `Number ${number} saved for port ${port}, but the gateway did not store it: ${err.message}.`;
    ctx.log.warn({ gatewayId: gw.id, port, reason: err.message }, 'sim_number write failed');
  }
  return { code: 1, msg, sim: toSim(view, ctx.config.DEFAULT_COUNTRY), deviceUpdated };
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
