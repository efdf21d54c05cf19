import type { ModuleDescriptor } from '../../module.ts';
import { authRoutes } from './auth.routes.ts';
import { authenticate } from './tokens.ts';

// Auth: sign-in, registration, sessions (tokens) and the first admin account.
export { ensureAdmin } from './auth.service.ts';
export { authenticate, signToken } from './tokens.ts';

export const authModule: ModuleDescriptor = {
  name: 'auth',
  tables: ['auth_throttle'],
  routes: authRoutes,
  authenticate,
};
