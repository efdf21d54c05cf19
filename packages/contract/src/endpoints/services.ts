import { Empty, Ok } from '../api/common.ts';
import { ServiceListBody } from '../api/places.ts';
import {
  DeleteServiceBody,
  MarkSpentBody,
  ReturnAllToPoolBody,
  ReturnAllToPoolResponse,
  ReturnToPoolBody,
  Service,
  ServiceInput,
  ServiceListResponse,
  SpentCountsResponse,
  SpentNumbersBody,
  SpentNumbersResponse,
  UnmarkSpentBody,
} from '../api/services.ts';
import { endpoint } from '../endpoint.ts';

/** The service catalogue (Dashboard, Service Manager) and its spent numbers (the number reuse rule). */
export const service = {
  /**
   * Public: no token needed. An admin's token adds the admin fields (stock, pattern, textContains).
   * With a country (and operator), prices and availability are that country's.
   */
  getAll: endpoint({
    method: 'POST',
    path: '/api/Service/getall',
    access: 'public',
    tag: 'services',
    body: ServiceListBody,
    response: { 200: ServiceListResponse },
  }),
  update: endpoint({
    method: 'POST',
    path: '/api/service/update',
    access: 'admin',
    tag: 'services',
    body: ServiceInput,
    response: { 200: Service },
  }),
  delete: endpoint({
    method: 'POST',
    path: '/api/service/delete',
    access: 'admin',
    tag: 'services',
    body: DeleteServiceBody,
    response: { 200: Ok },
  }),
  spentCounts: endpoint({
    method: 'POST',
    path: '/api/service/spentCounts',
    access: 'admin',
    tag: 'services',
    summary: 'How many numbers are spent (no longer rented), per service',
    body: Empty,
    response: { 200: SpentCountsResponse },
  }),
  spentNumbers: endpoint({
    method: 'POST',
    path: '/api/service/spentNumbers',
    access: 'admin',
    tag: 'services',
    summary: 'A service’s spent numbers and why: a code, an SMS, the reuse limit or an admin’s mark',
    body: SpentNumbersBody,
    response: { 200: SpentNumbersResponse },
  }),
  markSpent: endpoint({
    method: 'POST',
    path: '/api/service/markSpent',
    access: 'admin',
    tag: 'services',
    summary: 'Mark a number spent for a service, with a reason (audited)',
    body: MarkSpentBody,
    response: { 200: Ok },
  }),
  unmarkSpent: endpoint({
    method: 'POST',
    path: '/api/service/unmarkSpent',
    access: 'admin',
    tag: 'services',
    summary: 'Remove an admin’s spent mark (a number spent by its orders stays spent; audited)',
    body: UnmarkSpentBody,
    response: { 200: Ok },
  }),
  returnToPool: endpoint({
    method: 'POST',
    path: '/api/service/returnToPool',
    access: 'admin',
    tag: 'services',
    summary:
      'Return a number spent by the reuse limit (or, confirmed, by an SMS) to a service’s pool (audited)',
    body: ReturnToPoolBody,
    response: { 200: Ok },
  }),
  returnAllToPool: endpoint({
    method: 'POST',
    path: '/api/service/returnAllToPool',
    access: 'admin',
    tag: 'services',
    summary: 'Return every number the reuse limit spent to a service’s pool (audited)',
    body: ReturnAllToPoolBody,
    response: { 200: ReturnAllToPoolResponse },
  }),
};
