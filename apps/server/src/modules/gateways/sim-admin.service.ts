// An admin's SIM actions (Gateway Manager's SIM table): lock with a reason (until unlocked or for
// some minutes), unlock, and the SIM's role. Each is audited.
import type { SimActionResult, SimRole } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { badInput, notFound } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { type AuditActor, recordAudit } from '../audit/index.ts';
import { driverFor } from './device.ts';
import { findGatewayCredentials, findGatewayRow, findSimRow, type SimViewRow } from './gateways.queries.ts';
import { toSim } from './gateways.service.ts';
import { lockSim, setSimRole, unlockSim } from './health.queries.ts';
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
  return { code: 1, msg, sim: toSim(row) };
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
  return { code: 1, msg: `SIM on port ${sim.port} unlocked.`, sim: toSim(row) };
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
  return { code: 1, msg: `SIM on port ${sim.port}: ${ROLE_TEXT[body.role]}.`, sim: toSim(row) };
}
