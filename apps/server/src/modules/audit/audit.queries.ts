import type { AuditEntry } from '@simdock/contract';
import type { Queryable } from '../../db/db.ts';
import { keysetPage, type ListPage, type PageRequest } from '../../db/paging.ts';

export interface AuditRecord {
  at: Date;
  actorId: string | null;
  actorName: string;
  kind: string;
  targetId: string | null;
  targetLabel: string;
  before: unknown;
  after: unknown;
}

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

export async function insertAudit(q: Queryable, r: AuditRecord): Promise<string> {
  const rows = await q.query<{ id: string }>(
    `INSERT INTO audit_log (at, actor_id, actor_name, kind, target_id, target_label, before, after)
     VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8::jsonb) RETURNING id::text AS id`,
    [r.at, r.actorId, r.actorName, r.kind, r.targetId, r.targetLabel, json(r.before), json(r.after)],
  );
  return rows[0]!.id;
}

export interface AuditFilter {
  actor?: string;
  kind?: string;
  from?: Date;
  /** Exclusive upper bound. */
  to?: Date;
}

interface Row {
  id: string;
  at: Date;
  actor_id: string | null;
  actor_name: string;
  kind: string;
  target_id: string | null;
  target_label: string;
  before: unknown;
  after: unknown;
}

/** The audit log, newest first, paged by key (docs/architecture.md#paged-lists); only the filters given. */
export async function listAudit(
  q: Queryable,
  f: AuditFilter,
  req: PageRequest,
): Promise<Omit<ListPage<AuditEntry>, 'rows'> & { entries: AuditEntry[] }> {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (cond: string, v: unknown) => {
    params.push(v);
    where.push(cond.replace('?', `$${params.length}`));
  };
  if (f.actor) add('actor_name = ?', f.actor);
  if (f.kind) add('kind = ?', f.kind);
  if (f.from) add('at >= ?', f.from);
  if (f.to) add('at < ?', f.to);
  const { rows, ...page } = await keysetPage<Row>(
    q,
    {
      select: 'id::text AS id, at, actor_id, actor_name, kind, target_id, target_label, before, after',
      from: 'FROM audit_log',
      where,
      params,
      keys: [
        { expr: 'at', type: 'timestamptz' },
        { expr: 'audit_log.id', type: 'bigint' },
      ],
      desc: true,
    },
    req,
  );
  return {
    ...page,
    entries: rows.map((r) => ({
      id: r.id,
      at: new Date(r.at).toISOString(),
      actorId: r.actor_id,
      actorName: r.actor_name,
      kind: r.kind,
      targetId: r.target_id,
      targetLabel: r.target_label,
      before: r.before ?? null,
      after: r.after ?? null,
    })),
  };
}

/**
 * Deletes at most `batch` audit entries older than `before`, oldest first (audit_log_at), each by
 * its primary key (a join let PostgreSQL scan the whole log for 5,000 ids).
 */
export async function pruneAudit(q: Queryable, before: Date, batch: number): Promise<number> {
  const rows = await q.query<{ n: number }>(
    `WITH gone AS (
       DELETE FROM audit_log
        WHERE id = ANY (ARRAY(SELECT id FROM audit_log WHERE at < $1 ORDER BY at, id LIMIT $2))
       RETURNING 1
     )
     SELECT count(*)::int AS n FROM gone`,
    [before, batch],
  );
  return rows[0]?.n ?? 0;
}
