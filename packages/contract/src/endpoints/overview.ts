import { AdminOverview } from '../api/overview.ts';
import { endpoint } from '../endpoint.ts';

/** The admin's home screen: figures from every area. */
export const overview = {
  get: endpoint({
    method: 'POST',
    path: '/api/Admin/overview',
    access: 'admin',
    tag: 'admin',
    response: { 200: AdminOverview },
  }),
};
