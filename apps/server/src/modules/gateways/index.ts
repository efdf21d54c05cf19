import { GATEWAY_ONLINE_MS } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable, Reader } from '../../db/db.ts';
import type { ConfiguredModule } from '../../module.ts';
import { effectiveOrigin } from '../catalogue/index.ts';
import { datagramPorts } from './datagram-ports.ts';
import { deviceCan } from './driver/registry.ts';
import { gatewaysConfig } from './gateways.config.ts';
import * as q from './gateways.queries.ts';
import { gatewayRoutes } from './gateways.routes.ts';
import { goipListener } from './goip-listener.ts';
import * as h from './health.queries.ts';
import { inboxRoutes } from './inbox.routes.ts';
import { gatewayJobs } from './jobs.ts';
import { gatewayChangesListener } from './push-targets.ts';

// Gateways: SIM devices, their SIM inventory, device pushes and the store of incoming SMS, which
// is handed to the SMS consumers other modules register (rental codes, chat replies).

export type { MmsContent, SendTask } from './driver/driver.ts';
export type { SendableSim } from './gateways.queries.ts';
export {
  findGatewayByDevice,
  findGatewayByMacOrId,
  gatewaySettings,
  saveGateway,
  scanGateway,
} from './gateways.service.ts';
export {
  readSimSettingsOf as simSettings,
  recordSimOutcomes,
  type SimOutcome,
  type SimSettings,
  saveSimSettings,
} from './health.service.ts';
export { ingestIncomingSms } from './inbox.service.ts';
export { pruneGatewayData, sampleUptime } from './jobs.ts';
export { type SendTasksResult, sendSmsTasks } from './sending.service.ts';

/**
 * The UDP port this process holds for a kind of datagram device (`goip`): known once its listener
 * took the port (asynchronously after start, under a lock); undefined while another process holds it.
 */
export const heldDatagramPort = (ctx: AppContext, kind: string): number | undefined =>
  datagramPorts(ctx).get(kind)?.localPort;

/**
 * SIMs that can take a rental at `now`: number known, usable state, on an enabled online gateway,
 * not locked, role `rental` or `both` (a SIM at its sending cap stays rentable).
 */
export async function usableSims(db: Reader, now: Date, defaultCountry: string): Promise<UsableSim[]> {
  const rows = await q.usableSims(db, new Date(now.getTime() - GATEWAY_ONLINE_MS), now);
  return rows.map((r) => {
    const origin = effectiveOrigin(
      {
        imsi: r.imsi,
        operator: r.operator,
        iccid: r.iccid,
        number: r.number,
        countryOverride: r.country_override,
        operatorOverride: r.operator_override,
      },
      defaultCountry,
    );
    return {
      id: r.id,
      gateway_id: r.gateway_id,
      gateway_name: r.gateway_name,
      port: r.port,
      number: r.number,
      role: r.role,
      kept_percent: r.kept_percent,
      country: origin.country,
      operator: origin.operator,
    };
  });
}

/** A SIM that can take a rental now, with the country and operator it counts under. */
export interface UsableSim
  extends Omit<q.UsableSimRow, 'imsi' | 'iccid' | 'operator' | 'country_override' | 'operator_override'> {
  country: string;
  operator: string | null;
}
/**
 * SIMs that can send now (any number, known or not): usable state, active slot, enabled online
 * gateway, not locked, role `messaging` or `both`, below its day and month cap (`remaining`).
 */
export const sendableSims = (db: Queryable, now: Date) =>
  q.sendableSims(db, new Date(now.getTime() - GATEWAY_ONLINE_MS), now);
/**
 * One SIM and whether it can send now (undefined when the SIM or its gateway was deleted), with
 * what its device can send (`sendsMms`).
 */
export async function simSendState(db: Queryable, simId: string, now: Date) {
  const row = await q.simSendState(db, simId, new Date(now.getTime() - GATEWAY_ONLINE_MS), now);
  return row && { ...row, sendsMms: deviceCan(row.driver).sendMms };
}
/**
 * The SIMs a user may send from (role `messaging` or `both`, present), each with whether it can
 * send now and whether its device sends MMS.
 */
export async function messagingSims(db: Queryable, now: Date) {
  const rows = await q.messagingSims(db, new Date(now.getTime() - GATEWAY_ONLINE_MS), now);
  return rows.map((r) => ({ ...r, sendsMms: deviceCan(r.driver).sendMms }));
}
/** One more rental of this SIM today, in the renting transaction (the SIM table's figure). */
export const countSimRental = (db: Queryable, simId: string, at: Date) => h.countRental(db, simId, at);
/** SIMs locked at `now` (overview, metrics). */
export const lockedSimCount = (db: Queryable, now: Date) => h.lockedSimCount(db, now);
/** Enabled gateways offline at `now` (no status within GATEWAY_ONLINE_MS). */
export const offlineGatewayCount = (db: Queryable, now: Date) =>
  q.offlineGatewayCount(db, new Date(now.getTime() - GATEWAY_ONLINE_MS));
export const gatewayNames = (db: Queryable) => q.gatewayNames(db);
export const uptimeShare = (db: Queryable, since: Date) => h.uptimeShare(db, since);
/** Devices online, SIMs present and usable, SMS no consumer took in the last 24 h. */
export const gatewayFigures = (db: Queryable, now: Date) =>
  q.gatewayFigures(
    db,
    new Date(now.getTime() - GATEWAY_ONLINE_MS),
    new Date(now.getTime() - 24 * 3600_000),
    now,
  );

export { gatewaysConfig };

export const gatewaysModule: ConfiguredModule<typeof gatewaysConfig> = {
  name: 'gateways',
  tables: [
    'gateways',
    'sims',
    'sim_numbers',
    'incoming_sms',
    'gateway_uptime',
    'gateway_uptime_hourly',
    'sim_health',
    'sim_settings',
    'device_push_ids',
    'gateway_outbox',
    'gateway_ussd',
    'device_calls',
  ],
  config: gatewaysConfig,
  routes: async (app, ctx) => {
    await gatewayRoutes(app, ctx);
    inboxRoutes(app, ctx);
  },
  jobs: gatewayJobs,
  listeners: [gatewayChangesListener, goipListener],
};
