import {
  type MarkSpentBody,
  normalizePhoneNumber,
  PHONE_NUMBER_MESSAGE,
  SPENT_LIST_MAX,
  SPENT_REASON_MESSAGE,
  type SpentCountsResponse,
  type SpentNumbersBody,
  type SpentNumbersResponse,
  TEXT_LIMITS,
  type UnmarkSpentBody,
} from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { badInput, conflict, notFound } from '../../errors.ts';
import { isUuid } from '../../ids.ts';
import { type AuditActor, recordAudit } from '../audit/index.ts';
import { lockServiceForRent } from './orders.queries.ts';
import { findServiceById, type ServiceRow } from './services.queries.ts';
import { deleteMark, findMark, spentCounts, spentNumbers, upsertMark } from './spent.queries.ts';

// Admins see why numbers are spent for a service and mark (or unmark) numbers spent by hand.

async function mustService(q: Queryable, id: string): Promise<ServiceRow> {
  const row = isUuid(id) ? await findServiceById(q, id) : undefined;
  if (!row) throw notFound('Service not found.', 'service_not_found');
  return row;
}

function phoneNumberOf(input: string): string {
  const n = normalizePhoneNumber(input);
  if (!n) throw badInput(PHONE_NUMBER_MESSAGE, 'phoneNumber');
  return n;
}

/** A service's spent numbers, newest first, with why (SPENT_LIST_MAX at most, and the total). */
export async function listSpentNumbers(
  ctx: AppContext,
  body: SpentNumbersBody,
): Promise<SpentNumbersResponse> {
  const service = await mustService(ctx.db, body.serviceId);
  const search = body.search?.replace(/[\s().-]/g, '') || undefined;
  const limit = ctx.config.NUMBER_REUSE_LIMIT;
  const { numbers, total } = await spentNumbers(ctx.db, service.id, limit, { search, max: SPENT_LIST_MAX });
  return { code: 1, serviceId: service.id, reuseLimit: limit, total, numbers };
}

export async function countSpentNumbers(ctx: AppContext): Promise<SpentCountsResponse> {
  return { code: 1, counts: await spentCounts(ctx.db, ctx.config.NUMBER_REUSE_LIMIT) };
}

/**
 * Marks a number spent for a service (no rent takes it for that service again); marking it again
 * replaces the reason. Serialised with the service's rents: a rent after the mark never takes it.
 */
export async function markSpent(ctx: AppContext, body: MarkSpentBody, actor: AuditActor): Promise<string> {
  const phoneNumber = phoneNumberOf(body.phoneNumber);
  const reason = body.reason.trim();
  if (!reason || reason.length > TEXT_LIMITS.spentReason) throw badInput(SPENT_REASON_MESSAGE, 'reason');
  return ctx.db.tx(async (q) => {
    const service = await mustService(q, body.serviceId);
    await lockServiceForRent(q, service.id);
    const at = ctx.clock.now();
    const before = await findMark(q, service.id, phoneNumber);
    await upsertMark(q, {
      serviceId: service.id,
      phoneNumber,
      reason,
      byId: actor.id,
      byName: actor.username,
      at,
    });
    await recordAudit(q, {
      actor,
      kind: 'service.numberSpent',
      targetId: service.id,
      targetLabel: `${service.code} ${phoneNumber}`,
      before: before ? { phoneNumber, reason: before.reason, markedBy: before.marked_by_name } : null,
      after: { phoneNumber, reason, markedBy: actor.username },
      at,
    });
    return `${phoneNumber} is marked spent for ${service.name}.`;
  });
}

/** Removes an admin's mark. A number its orders spent (a code, the reuse limit) stays spent: 409. */
export async function unmarkSpent(
  ctx: AppContext,
  body: UnmarkSpentBody,
  actor: AuditActor,
): Promise<string> {
  const phoneNumber = phoneNumberOf(body.phoneNumber);
  return ctx.db.tx(async (q) => {
    const service = await mustService(q, body.serviceId);
    await lockServiceForRent(q, service.id);
    const removed = await deleteMark(q, service.id, phoneNumber);
    if (!removed) {
      const { numbers } = await spentNumbers(q, service.id, ctx.config.NUMBER_REUSE_LIMIT, {
        exact: phoneNumber,
        max: 1,
      });
      const why = numbers[0]?.reason;
      if (why && why !== 'admin') {
        throw conflict(
          `${phoneNumber} was not marked by an admin: it is spent for ${service.name} because ${
            why === 'limit'
              ? 'it reached the reuse limit'
              : why === 'code'
                ? 'it received a code'
                : 'it received an SMS'
          }, which cannot be undone.`,
          'phoneNumber',
        );
      }
      throw notFound(`${phoneNumber} is not marked spent for ${service.name}.`);
    }
    const at = ctx.clock.now();
    await recordAudit(q, {
      actor,
      kind: 'service.numberUnspent',
      targetId: service.id,
      targetLabel: `${service.code} ${phoneNumber}`,
      before: { phoneNumber, reason: removed.reason, markedBy: removed.marked_by_name },
      after: null,
      at,
    });
    return `The mark on ${phoneNumber} for ${service.name} is removed.`;
  });
}
