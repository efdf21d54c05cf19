import type { ConfiguredModule } from '../../module.ts';
import { authConfig } from './auth.config.ts';
import { authRoutes } from './auth.routes.ts';
import { verifyReauth } from './reauth.ts';
import { secondFactorUsers } from './second-factor.queries.ts';
import { authenticate } from './tokens.ts';

// Auth: sign-in, registration, sessions (tokens) and the first admin account.
export { ensureAdmin } from './auth.service.ts';
export { recoveryIdle } from './recovery.service.ts';
export { signToken } from './tokens.ts';

export { authConfig };

export const authModule: ConfiguredModule<typeof authConfig> = {
  name: 'auth',
  tables: [
    'auth_throttle',
    'device_tokens',
    'user_second_factors',
    'second_factor_recovery_codes',
    'second_factor_challenges',
    'password_resets',
  ],
  config: authConfig,
  routes: authRoutes,
  authenticate,
  verifyReauth,
  secondFactorUsers,
};
