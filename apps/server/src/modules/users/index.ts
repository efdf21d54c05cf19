import { foldAll } from '../../db/tallies.ts';
import type { ModuleDescriptor } from '../../module.ts';
import { USER_TALLIES } from './users.queries.ts';
import { userRoutes } from './users.routes.ts';

export { mailOwner } from './notices.ts';
export { hashPassword, verifyPassword, verifyUnknownUser } from './passwords.ts';
// Users: accounts, profile and password. Balances are billing's; sign-in is auth's.
export {
  adminExists,
  findUserById,
  findUserByLogin,
  findUserByUsername,
  insertUser,
  USER_TALLIES,
  type UserRow,
  updatePasswordHash,
  userCount,
  userIdsMatching,
  usernamesByIds,
} from './users.queries.ts';
export { activeUserById, changePassword, signedInUser, userInfo } from './users.service.ts';

export const usersModule: ModuleDescriptor = {
  name: 'users',
  tables: ['users', 'user_tallies'],
  routes: userRoutes,
  jobs: [
    {
      // The tally's appended rows fold into one (it stays exact unfolded too).
      name: 'users-tallies-fold',
      intervalMs: () => 30_000,
      run: async (ctx) => {
        await foldAll(ctx.db, USER_TALLIES);
      },
    },
  ],
};
