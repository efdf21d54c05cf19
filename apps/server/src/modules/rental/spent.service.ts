import {
  type MarkSpentBody,
  normalizePhoneNumber,
  PHONE_NUMBER_MESSAGE,
  type ReturnAllToPoolBody,
  type ReturnAllToPoolResponse,
  type ReturnToPoolBody,
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
import { availabilityChanged } from './services.service.ts';
import {
  deleteMark,
  findMark,
  returnNumber,
  returnNumbersSpentByLimit,
  spentCounts,
  spentNumbers,
  upsertMark,
} from './spent.queries.ts';

// Admins see why numbers are spent for a service and mark (or unmark) numbers spent by hand.

/** A change of spent numbers, in a transaction; the catalogue's availability is recomputed after it. */
async function changingAvailability<T>(ctx: AppContext, fn: (q: Queryable) => Promise<T>): Promise<T> {
  const result = await ctx.db.tx(fn);
  availabilityChanged(ctx);
  return result;
}

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
  return { code: 1, counts: await spentCounts(ctx.db.heavy, ctx.config.NUMBER_REUSE_LIMIT) };
}

/**
 * Marks a number spent for a service (no rent takes it for that service again); marking it again
 * replaces the reason. Serialised with the service's rents: a rent after the mark never takes it.
 */
export async function markSpent(ctx: AppContext, body: MarkSpentBody, actor: AuditActor): Promise<string> {
  const phoneNumber = phoneNumberOf(body.phoneNumber);
  const reason = body.reason.trim();
  if (!reason || reason.length > TEXT_LIMITS.spentReason) throw badInput(SPENT_REASON_MESSAGE, 'reason');
  return changingAvailability(ctx, async (q) => {
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
  return changingAvailability(ctx, async (q) => {
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

/**
 * Gives a number its orders spent back to the service's pool, without a restart: its rentals so far
 * no longer count toward the reuse limit. Spent by the limit: returned. Spent by the service's SMS
 * without a code: only with `includeSms` (the admin confirmed it; the number may be known to the
 * service). Spent by a code: refused, the service's account on it belongs to that renter (and an
 * order with a code keeps its pair taken in the database). An admin's mark stays (remove it
 * separately). Serialised with the service's rents; audited.
 */
export async function returnToPool(
  ctx: AppContext,
  body: ReturnToPoolBody,
  actor: AuditActor,
): Promise<string> {
  const phoneNumber = phoneNumberOf(body.phoneNumber);
  return changingAvailability(ctx, async (q) => {
    const service = await mustService(q, body.serviceId);
    await lockServiceForRent(q, service.id);
    const limit = ctx.config.NUMBER_REUSE_LIMIT;
    const { numbers } = await spentNumbers(q, service.id, limit, { exact: phoneNumber, max: 1 });
    const why = numbers[0]?.reason;
    if (why === undefined || why === 'admin') {
      throw notFound(
        why === 'admin'
          ? `${phoneNumber} is spent for ${service.name} only by an admin's mark: remove the mark instead.`
          : `${phoneNumber} is not spent for ${service.name} by its rentals.`,
      );
    }
    if (why === 'code') {
      throw conflict(
        `${phoneNumber} received a code for ${service.name}: the service's account on it belongs to that renter, so it cannot go back to the pool.`,
        'phoneNumber',
      );
    }
    if (why === 'sms' && body.includeSms !== true) {
      throw conflict(
        `${phoneNumber} received an SMS of ${service.name}: confirm that it may go back to the pool anyway.`,
        'includeSms',
      );
    }
    const at = ctx.clock.now();
    await returnNumber(q, { serviceId: service.id, phoneNumber, byId: actor.id, byName: actor.username, at });
    await recordAudit(q, {
      actor,
      kind: 'service.numberReturned',
      targetId: service.id,
      targetLabel: `${service.code} ${phoneNumber}`,
      before: { phoneNumber, reason: why, rentals: numbers[0]!.rentals },
      after: { phoneNumber, returned: true },
      at,
    });
    const marked = numbers[0]!.mark
      ? ' It is still marked spent by an admin; remove the mark to rent it.'
      : '';
    return `${phoneNumber} is back in the pool of ${service.name}.${marked}`;
  });
}

/** The most numbers one audit entry of "return all" lists (the count is always complete). */
const AUDIT_NUMBERS_MAX = 50;

/** Returns every number the reuse limit spent for a service to its pool (one audit entry). */
export async function returnAllToPool(
  ctx: AppContext,
  body: ReturnAllToPoolBody,
  actor: AuditActor,
): Promise<ReturnAllToPoolResponse> {
  return changingAvailability(ctx, async (q) => {
    const service = await mustService(q, body.serviceId);
    await lockServiceForRent(q, service.id);
    const at = ctx.clock.now();
    const numbers = await returnNumbersSpentByLimit(q, {
      serviceId: service.id,
      reuseLimit: ctx.config.NUMBER_REUSE_LIMIT,
      byId: actor.id,
      byName: actor.username,
      at,
    });
    if (numbers.length > 0) {
      await recordAudit(q, {
        actor,
        kind: 'service.numbersReturned',
        targetId: service.id,
        targetLabel: service.code,
        before: { reason: 'limit', count: numbers.length },
        after: { returned: numbers.length, numbers: numbers.slice(0, AUDIT_NUMBERS_MAX) },
        at,
      });
    }
    return {
      code: 1,
      returned: numbers.length,
      msg:
        numbers.length === 0
          ? `No number is spent by the reuse limit for ${service.name}.`
          : `${numbers.length} number${numbers.length === 1 ? '' : 's'} back in the pool of ${service.name}.`,
    };
  });
}
