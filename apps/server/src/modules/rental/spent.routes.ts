import {
  Empty,
  MarkSpentBody,
  Ok,
  SpentCountsResponse,
  SpentNumbersBody,
  SpentNumbersResponse,
  UnmarkSpentBody,
} from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { access, currentUser } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { countSpentNumbers, listSpentNumbers, markSpent, unmarkSpent } from './spent.service.ts';

// Service Manager's spent numbers (the number reuse rule): admins only.
export function spentRoutes(app: App, ctx: AppContext) {
  const tags = ['services'];
  app.post(
    '/api/service/spentCounts',
    {
      ...access(ctx, 'admin'),
      schema: {
        tags,
        summary: 'How many numbers are spent (no longer rented), per service',
        body: Empty,
        response: { 200: SpentCountsResponse },
      },
    },
    async () => countSpentNumbers(ctx),
  );

  app.post(
    '/api/service/spentNumbers',
    {
      ...access(ctx, 'admin'),
      schema: {
        tags,
        summary: 'A service’s spent numbers and why: a code, an SMS, the reuse limit or an admin’s mark',
        body: SpentNumbersBody,
        response: { 200: SpentNumbersResponse },
      },
    },
    async (req) => listSpentNumbers(ctx, req.body),
  );

  app.post(
    '/api/service/markSpent',
    {
      ...access(ctx, 'admin'),
      schema: {
        tags,
        summary: 'Mark a number spent for a service, with a reason (audited)',
        body: MarkSpentBody,
        response: { 200: Ok },
      },
    },
    async (req) => ({ code: 1 as const, msg: await markSpent(ctx, req.body, currentUser(req)) }),
  );

  app.post(
    '/api/service/unmarkSpent',
    {
      ...access(ctx, 'admin'),
      schema: {
        tags,
        summary: 'Remove an admin’s spent mark (a number spent by its orders stays spent; audited)',
        body: UnmarkSpentBody,
        response: { 200: Ok },
      },
    },
    async (req) => ({ code: 1 as const, msg: await unmarkSpent(ctx, req.body, currentUser(req)) }),
  );
}
