import { UserInfo } from '../api/auth.ts';
import { endpoint } from '../endpoint.ts';

/** The signed-in user's info (every signed-in screen's top bar). */
export const user = {
  info: endpoint({
    method: 'POST',
    path: '/api/user/info',
    access: 'user',
    tag: 'user',
    response: { 200: UserInfo },
  }),
};
