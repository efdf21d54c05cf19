import {
  AdminUserListBody,
  AdminUserListResponse,
  DeleteUserBody,
  DeleteUserResponse,
  UpdateUserBody,
  UpdateUserResponse,
} from '../api/users.ts';
import { endpoint } from '../endpoint.ts';

/** The User Manager (admin). A file of its own: the sign-in bundle carries `user`, not these. */
export const userAdmin = {
  getUser: endpoint({
    method: 'POST',
    path: '/api/Admin/getUser',
    access: 'admin',
    tag: 'admin',
    body: AdminUserListBody,
    response: { 200: AdminUserListResponse },
  }),
  /** Adds (no id) or edits a user. */
  updateUser: endpoint({
    method: 'POST',
    path: '/api/Admin/updateUser',
    access: 'admin',
    tag: 'admin',
    body: UpdateUserBody,
    response: { 200: UpdateUserResponse },
  }),
  /** Deletes a user, or deactivates one with history. */
  deleteUser: endpoint({
    method: 'POST',
    path: '/api/Admin/deleteUser',
    access: 'admin',
    tag: 'admin',
    body: DeleteUserBody,
    response: { 200: DeleteUserResponse },
  }),
};
