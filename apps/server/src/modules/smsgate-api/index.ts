import type { ModuleDescriptor } from '../../module.ts';
import { smsgateApiRoutes } from './smsgate-api.routes.ts';

// SMSGate's third-party API as a front door (base URL `<SimDock>/3rdparty/v1`): tools made for
// SMSGate send and read states through SimDock's messaging API and register webhooks that receive
// SMSGate's bodies. It owns no table: sends are messaging's, webhooks the webhooks module's.

export const smsgateApiModule: ModuleDescriptor = {
  name: 'smsgate-api',
  tables: [],
  routes: async (app, ctx) => smsgateApiRoutes(app, ctx),
};
