import type { ConfiguredModule } from '../../module.ts';
import { smppListener } from './listener.ts';
import { smppConfig } from './smpp.config.ts';
import { smppRoutes } from './smpp.routes.ts';

// SMPP 3.4 for messaging customers: an API key with the messaging:send scope gets an SMPP
// credential; its binds submit messages through messaging exactly like the REST API (prices,
// limits, STOP list, the fair queue). Delivery receipts and replies as deliver_sm come later.

export { smppPorts } from './ports.ts';

export { smppConfig };

export const smppModule: ConfiguredModule<typeof smppConfig> = {
  name: 'smpp',
  tables: ['smpp_accounts'],
  config: smppConfig,
  routes: smppRoutes,
  listeners: [smppListener],
};
