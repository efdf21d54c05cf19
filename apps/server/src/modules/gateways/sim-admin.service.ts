// An admin's SIM actions (Gateway Manager's SIM table): lock with a reason (until unlocked or for
// some minutes), unlock, the SIM's role, and a USSD code (a balance check). Each is audited.
import {
  COUNTRY_CODE_MESSAGE,
  type SetSimNumberResult,
  type SimActionResult,
  type SimRole,
} from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { badInput, notFound } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { type AuditActor, recordAudit } from '../audit/index.ts';
import { effectiveOrigin, isCountryCode } from '../catalogue/index.ts';
import { deviceUnavailable, driverFor } from './device.ts';
import { GatewayError } from './driver/driver.ts';
import { deviceKind } from './driver/registry.ts';
import {
  findGatewayCredentials,
  findGatewayRow,
  findSimRow,
  type SimViewRow,
  setSimOrigin,
  setSimUssd,
} from './gateways.queries.ts';
import { toSim } from './gateways.service.ts';
import { lockSim, setSimRole, unlockSim } from './health.queries.ts';
import { wakeHeldSends } from './held-sends.ts';
import { giveUpUssd, holdUssd, readUssd } from './outbox.queries.ts';
import { gatewayChanged } from './push-targets.ts';

// ---- admin actions ------------------------------------------------------------------------------

async function mustSim(
  ctx: AppContext,
  body: { gatewayId: string; port: string },
): Promise<{ gw: { id: string; name: string }; sim: SimViewRow }> {
  const gw = isUuid(body.gatewayId) ? await findGatewayRow(ctx.db, body.gatewayId) : undefined;
  if (!gw)
    throw notFound('Gateway not found. It may have been deleted; reload the list.', 'gateway_not_found');
  const creds = (await findGatewayCredentials(ctx.db, gw.id))!;
  const driver = driverFor(ctx, creds);
  const port = driver.canonicalSlot(body.port);
  if (!port) throw badInput(driver.slotHint, 'port');
  const sim = await findSimRow(ctx.db, gw.id, port, ctx.clock.now());
  if (!sim) throw notFound(`No SIM is known on port ${port}. Scan the gateway first.`);
  return { gw, sim };
}

const lockSnapshot = (s: SimViewRow) => ({
  port: s.port,
  iccid: s.iccid,
  locked: s.locked,
  kind: s.locked ? s.lock_kind : null,
  reason: s.locked ? s.lock_reason : null,
  until: s.locked ? (s.locked_until?.toISOString() ?? null) : null,
});

async function reread(ctx: AppContext, gatewayId: string, port: string): Promise<SimViewRow> {
  const row = await findSimRow(ctx.db, gatewayId, port, ctx.clock.now());
  if (!row) throw notFound(`No SIM is known on port ${port}. Scan the gateway first.`);
  return row;
}

/** An admin's lock: until unlocked, or for `minutes`. Audited. */
export async function lockSimByAdmin(
  ctx: AppContext,
  body: { gatewayId: string; port: string; reason: string; minutes?: number | undefined },
  actor: AuditActor,
): Promise<SimActionResult> {
  const { gw, sim } = await mustSim(ctx, body);
  const reason = body.reason.trim();
  const at = ctx.clock.now();
  const until = body.minutes ? new Date(at.getTime() + body.minutes * 60_000) : null;
  await ctx.db.tx(async (q) => {
    await lockSim(q, sim.id, { kind: 'manual', reason, until, by: actor.username, at });
    // What a rent may take changed: every process's catalogue recomputes (docs/architecture.md).
    await gatewayChanged(q, gw.id);
    await recordAudit(q, {
      actor,
      kind: 'gateway.simLock',
      targetId: gw.id,
      targetLabel: `${gw.name} ${sim.port}`,
      before: lockSnapshot(sim),
      after: {
        port: sim.port,
        iccid: sim.iccid,
        locked: true,
        kind: 'manual',
        reason,
        until: until?.toISOString() ?? null,
      },
      at,
    });
  });
  ctx.log.info({ gatewayId: gw.id, port: sim.port, until }, 'SIM locked by an admin');
  const row = await reread(ctx, gw.id, sim.port);
  const msg = until
    ? `SIM on port ${sim.port} locked until ${until.toISOString().slice(0, 16).replace('T', ' ')} UTC.`
    : `SIM on port ${sim.port} locked until you unlock it.`;
  return { code: 1, msg, sim: toSim(row, ctx.config.DEFAULT_COUNTRY) };
}

/** Ends any lock of the SIM (a device lock comes back if the device still reports it blocked). Audited. */
export async function unlockSimByAdmin(
  ctx: AppContext,
  body: { gatewayId: string; port: string; reason: string },
  actor: AuditActor,
): Promise<SimActionResult> {
  const { gw, sim } = await mustSim(ctx, body);
  const at = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    await unlockSim(q, sim.id);
    // What a rent may take changed: every process's catalogue recomputes (docs/architecture.md).
    await gatewayChanged(q, gw.id);
    await recordAudit(q, {
      actor,
      kind: 'gateway.simUnlock',
      targetId: gw.id,
      targetLabel: `${gw.name} ${sim.port}`,
      before: lockSnapshot(sim),
      after: { port: sim.port, iccid: sim.iccid, locked: false, reason: body.reason.trim() },
      at,
    });
  });
  ctx.log.info({ gatewayId: gw.id, port: sim.port }, 'SIM unlocked by an admin');
  const row = await reread(ctx, gw.id, sim.port);
  return { code: 1, msg: `SIM on port ${sim.port} unlocked.`, sim: toSim(row, ctx.config.DEFAULT_COUNTRY) };
}

const ROLE_TEXT: Record<SimRole, string> = {
  both: 'rental and messaging',
  rental: 'rental only',
  messaging: 'messaging only',
};

/** Which job the SIM does. Audited. */
export async function setSimRoleByAdmin(
  ctx: AppContext,
  body: { gatewayId: string; port: string; role: SimRole },
  actor: AuditActor,
): Promise<SimActionResult> {
  const { gw, sim } = await mustSim(ctx, body);
  const at = ctx.clock.now();
  if (sim.role !== body.role) {
    await ctx.db.tx(async (q) => {
      await setSimRole(q, sim.id, body.role);
      // What a rent may take changed: every process's catalogue recomputes (docs/architecture.md).
      await gatewayChanged(q, gw.id);
      await recordAudit(q, {
        actor,
        kind: 'gateway.simRole',
        targetId: gw.id,
        targetLabel: `${gw.name} ${sim.port}`,
        before: { port: sim.port, iccid: sim.iccid, role: sim.role },
        after: { port: sim.port, iccid: sim.iccid, role: body.role },
        at,
      });
    });
  }
  const row = await reread(ctx, gw.id, sim.port);
  return {
    code: 1,
    msg: `SIM on port ${sim.port}: ${ROLE_TEXT[body.role]}.`,
    sim: toSim(row, ctx.config.DEFAULT_COUNTRY),
  };
}

const originOf = (ctx: AppContext, s: SimViewRow) => ({
  port: s.port,
  iccid: s.iccid,
  ...effectiveOrigin(
    {
      imsi: s.imsi,
      operator: s.operator,
      iccid: s.iccid,
      number: s.number,
      countryOverride: s.country_override,
      operatorOverride: s.operator_override,
    },
    ctx.config.DEFAULT_COUNTRY,
  ),
});

/**
 * An admin's correction of the SIM's country and operator, kept across scans until another card
 * is seen in the slot; a null country and operator clear it. Audited.
 */
export async function setSimOriginByAdmin(
  ctx: AppContext,
  body: { gatewayId: string; port: string; country: string | null; operator?: string | null | undefined },
  actor: AuditActor,
): Promise<SetSimNumberResult> {
  // The contract checks the shape; only a country the number tables know can be rented by.
  if (body.country !== null && !isCountryCode(body.country)) throw badInput(COUNTRY_CODE_MESSAGE, 'country');
  const { gw, sim } = await mustSim(ctx, body);
  const country = body.country;
  const operator = body.operator ? body.operator : null;
  const at = ctx.clock.now();
  if (sim.country_override !== country || sim.operator_override !== operator) {
    await ctx.db.tx(async (q) => {
      await setSimOrigin(q, sim.id, country, operator);
      // The countries' stock changed: every process's catalogue recomputes (docs/architecture.md).
      await gatewayChanged(q, gw.id);
      await recordAudit(q, {
        actor,
        kind: 'gateway.simOrigin',
        targetId: gw.id,
        targetLabel: `${gw.name} ${sim.port}`,
        before: originOf(ctx, sim),
        after: originOf(ctx, { ...sim, country_override: country, operator_override: operator }),
        at,
      });
    });
    ctx.log.info({ gatewayId: gw.id, port: sim.port, country, operator }, 'SIM origin corrected by an admin');
  }
  const row = await reread(ctx, gw.id, sim.port);
  const shown = toSim(row, ctx.config.DEFAULT_COUNTRY);
  const msg =
    country === null && operator === null
      ? `SIM on port ${sim.port}: correction cleared.`
      : `SIM on port ${sim.port}: ${shown.origin.country}${shown.origin.operator ? `, ${shown.origin.operator}` : ''}.`;
  return { code: 1, msg, sim: shown, deviceUpdated: false };
}

/** How long an admin's USSD request waits for the process that holds a datagram device's socket. */
export const USSD_WAIT_MS = 40_000;

/**
 * Sends a USSD code from the SIM (a balance check) and answers the network's reply, which is kept
 * on the SIM. A device the platform reaches directly is asked at once; a datagram device's request
 * waits for the process that holds its socket (held-sends.ts). Audited: a code may cost money.
 */
export async function sendSimUssdByAdmin(
  ctx: AppContext,
  body: { gatewayId: string; port: string; code: string },
  actor: AuditActor,
): Promise<SimActionResult> {
  const { gw, sim } = await mustSim(ctx, body);
  const creds = (await findGatewayCredentials(ctx.db, gw.id))!;
  const spec = deviceKind(ctx, creds.driver);
  if (!spec?.can.ussd) throw badInput('This kind of device cannot send USSD codes.', 'code');
  const code = body.code.trim();
  let reply: string;
  try {
    reply =
      spec.sends === 'held'
        ? await heldUssd(ctx, gw.id, sim.port, code, creds.driver)
        : await driverFor(ctx, creds).ussd!(sim.port, code);
  } catch (err) {
    deviceUnavailable(err, `The USSD code ${code} got no reply`);
  }
  const at = ctx.clock.now();
  await ctx.db.tx(async (q) => {
    await setSimUssd(q, sim.id, code, reply, at);
    await recordAudit(q, {
      actor,
      kind: 'gateway.simUssd',
      targetId: gw.id,
      targetLabel: `${gw.name} ${sim.port}`,
      before: { port: sim.port, iccid: sim.iccid },
      after: { port: sim.port, iccid: sim.iccid, code, reply },
      at,
    });
  });
  ctx.log.info({ gatewayId: gw.id, port: sim.port, code }, 'USSD sent from a SIM by an admin');
  const row = await reread(ctx, gw.id, sim.port);
  return { code: 1, msg: reply, sim: toSim(row, ctx.config.DEFAULT_COUNTRY) };
}

/** A datagram device's USSD: held until the socket's holder has run it, USSD_WAIT_MS at most. */
async function heldUssd(
  ctx: AppContext,
  gatewayId: string,
  port: string,
  code: string,
  kind: string,
): Promise<string> {
  const id = await holdUssd(ctx.db, gatewayId, port, code, ctx.clock.now());
  wakeHeldSends(ctx, kind);
  const until = Date.now() + USSD_WAIT_MS;
  for (;;) {
    const r = await readUssd(ctx.db, id);
    if (r?.state === 'answered') return r.reply ?? '';
    if (r?.state === 'failed') throw new GatewayError('refused', r.reply ?? 'no reply');
    if (Date.now() > until) {
      if (await giveUpUssd(ctx.db, id, ctx.clock.now()))
        throw new GatewayError('timeout', 'no server process holding the device port ran it in time');
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
