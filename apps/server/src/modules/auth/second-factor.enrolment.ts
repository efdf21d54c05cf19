import { ADMIN_ROLE } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { secondFactorEnabled } from './second-factor.queries.ts';

// The one rule the session check and the second factor share (kept apart so neither imports the other).

/** An administrator who must enrol a second factor (REQUIRE_ADMIN_2FA) and has not yet. */
export async function mustEnrol(ctx: AppContext, userId: string, roles: readonly string[]): Promise<boolean> {
  return (
    ctx.config.REQUIRE_ADMIN_2FA && roles.includes(ADMIN_ROLE) && !(await secondFactorEnabled(ctx.db, userId))
  );
}
