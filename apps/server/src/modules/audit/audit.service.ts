import {
  AUDIT_PAGE_SIZE,
  type AuditKind,
  type AuditListBody,
  type AuditListResponse,
  totalPages,
} from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { badInput } from '../../errors.ts';
import { insertAudit, listAudit } from './audit.queries.ts';

/** Who did it: the signed-in admin of the route. */
export interface AuditActor {
  id: string;
  username: string;
}

export interface AuditAction {
  actor: AuditActor;
  kind: AuditKind;
  targetId: string | null;
  targetLabel: string;
  before?: unknown;
  after?: unknown;
  at: Date;
}

/**
 * Records an admin action. Call it with the transaction handle of the action itself, so the record
 * exists exactly when the action committed. Returns the record's id.
 */
export async function recordAudit(q: Queryable, a: AuditAction): Promise<string> {
  return insertAudit(q, {
    at: a.at,
    actorId: a.actor.id,
    actorName: a.actor.username,
    kind: a.kind,
    targetId: a.targetId,
    targetLabel: a.targetLabel,
    before: a.before ?? null,
    after: a.after ?? null,
  });
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A filter date: "YYYY-MM-DD" (a whole UTC day) or an ISO timestamp. */
function parseDate(value: string | undefined, field: string, endOfDay: boolean): Date | undefined {
  if (!value?.trim()) return undefined;
  const v = value.trim();
  const d = new Date(DATE.test(v) ? `${v}T00:00:00.000Z` : v);
  if (Number.isNaN(d.getTime())) throw badInput('Enter the date as YYYY-MM-DD.', field);
  if (endOfDay && DATE.test(v)) d.setUTCDate(d.getUTCDate() + 1);
  return d;
}

export async function auditLog(ctx: AppContext, body: AuditListBody): Promise<AuditListResponse> {
  const pageSize = body?.pageSize ?? AUDIT_PAGE_SIZE;
  const page = body?.page ?? 1;
  const from = parseDate(body?.from, 'from', false);
  const to = parseDate(body?.to, 'to', true);
  const { entries, total, ...paged } = await listAudit(
    ctx.db,
    { actor: body?.actor?.trim().toLowerCase() || undefined, kind: body?.kind, from, to },
    { page, pageSize, after: body?.after, before: body?.before },
  );
  return { code: 1, entries, total, page, totalPages: totalPages(total, pageSize), ...paged };
}
