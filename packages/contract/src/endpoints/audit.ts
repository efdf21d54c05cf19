import { AuditListBody, AuditListResponse } from '../api/users.ts';
import { endpoint } from '../endpoint.ts';

/** The Audit Log page (admin): who did what, newest first. */
export const audit = {
  list: endpoint({
    method: 'POST',
    path: '/api/Admin/audit',
    access: 'admin',
    tag: 'admin',
    body: AuditListBody,
    response: { 200: AuditListResponse },
  }),
};
