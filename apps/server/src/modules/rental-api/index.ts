import type { ModuleDescriptor } from '../../module.ts';
import { handlerRoutes } from './handler.routes.ts';
import { v1Routes } from './v1.routes.ts';

// The rental API for programs, with an API key: the SMS-Activate-compatible handler and the REST
// API /api/v1. It owns no table: orders come from rental, money from billing, keys from apikey
// (through the registry's API-key authenticator).

export const rentalApiModule: ModuleDescriptor = {
  name: 'rental-api',
  tables: [],
  routes: async (app, ctx) => {
    await handlerRoutes(app, ctx);
    v1Routes(app, ctx);
  },
};
