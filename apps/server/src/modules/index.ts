import type { AppContext } from '../context.ts';
import type { App } from '../http/types.ts';
import type { ModuleDescriptor } from '../module.ts';
import { apikeyModule } from './apikey/index.ts';
import { auditModule } from './audit/index.ts';
import { authModule } from './auth/index.ts';
import { billingModule } from './billing/index.ts';
import { catalogueModule } from './catalogue/index.ts';
import { gatewaysModule } from './gateways/index.ts';
import { liveModule } from './live/index.ts';
import { messagingModule } from './messaging/index.ts';
import { metaModule } from './meta/index.ts';
import { metricsModule } from './metrics/index.ts';
import { overviewModule } from './overview/index.ts';
import { paymentsModule } from './payments/index.ts';
import { rentalModule } from './rental/index.ts';
import { rentalApiModule } from './rental-api/index.ts';
import { smppModule } from './smpp/index.ts';
import { smsgateApiModule } from './smsgate-api/index.ts';
import { usersModule } from './users/index.ts';
import { webhooksModule } from './webhooks/index.ts';

/**
 * The composition root: the only place that knows every module. Order matters where a registry is
 * ordered: rental's SMS consumer comes before later ones (chat replies). Kept as a tuple so that
 * settings.ts composes the settings' types from the descriptors (`config`) that declare them.
 */
export const MODULES = [
  metaModule,
  auditModule,
  billingModule,
  usersModule,
  authModule,
  catalogueModule,
  gatewaysModule,
  rentalModule,
  apikeyModule,
  rentalApiModule,
  webhooksModule,
  paymentsModule,
  // After rental: its SMS consumer (codes) must see an incoming SMS before messaging's (replies).
  messagingModule,
  smppModule,
  smsgateApiModule,
  liveModule,
  overviewModule,
  metricsModule,
] as const satisfies readonly ModuleDescriptor[];

/** Fills the context's registries from the descriptors. */
export function fillRegistry(ctx: AppContext, modules: readonly ModuleDescriptor[] = MODULES): void {
  const r = ctx.registry;
  for (const m of modules) {
    r.smsConsumers.push(...(m.smsConsumers ?? []));
    r.reportConsumers.push(...(m.reportConsumers ?? []));
    r.gatewayDeleteChecks.push(...(m.gatewayDeleteChecks ?? []));
    r.userHistoryChecks.push(...(m.userHistoryChecks ?? []));
    r.jobs.push(...(m.jobs ?? []));
    r.listeners.push(...(m.listeners ?? []));
    r.codeListeners.push(...(m.codeListeners ?? []));
    r.messageEventListeners.push(...(m.messageEventListeners ?? []));
    Object.assign(r.liveRenderers, m.liveRenderers ?? {});
    if (m.authenticate) r.authenticate = m.authenticate;
    if (m.authenticateApiKey) r.authenticateApiKey = m.authenticateApiKey;
    if (m.apiKeyOf) r.apiKeyOf = m.apiKeyOf;
    if (m.verifyReauth) r.verifyReauth = m.verifyReauth;
    if (m.messagePrices) r.messagePrices = m.messagePrices;
    if (m.secondFactorUsers) r.secondFactorUsers = m.secondFactorUsers;
  }
}

/** Registers every module's routes. */
export async function registerModules(
  app: App,
  ctx: AppContext,
  modules: readonly ModuleDescriptor[] = MODULES,
): Promise<void> {
  for (const m of modules) await m.routes?.(app, ctx);
}
