import type { ModuleDescriptor } from '../../module.ts';
import { userRoutes } from './users.routes.ts';

export { mailOwner, type OwnerNotice } from './notices.ts';
export { hashPassword, verifyPassword, verifyUnknownUser } from './passwords.ts';
// Users: accounts, profile and password. Balances are billing's; sign-in is auth's.
export {
  adminExists,
  findUserById,
  findUserByLogin,
  findUserByUsername,
  insertUser,
  type UserRow,
  updatePasswordHash,
  userCount,
  userIdsMatching,
  usernamesByIds,
} from './users.queries.ts';
export { activeUserById, changePassword, signedInUser, userInfo } from './users.service.ts';

export const usersModule: ModuleDescriptor = { name: 'users', tables: ['users'], routes: userRoutes };
