import type { AuditEntry } from '@simdock/contract';
import type { Queryable } from '../../db/db.ts';

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
  limit: number;
  offset: number;
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
  total: number;
}

export async function listAudit(
  q: Queryable,
  f: AuditFilter,
): Promise<{ entries: AuditEntry[]; total: number }> {
  const rows = await q.query<Row>(
    `SELECT id::text AS id, at, actor_id, actor_name, kind, target_id, target_label, before, after,
            count(*) OVER ()::int AS total
       FROM audit_log
      WHERE ($1::text IS NULL OR actor_name = $1)
        AND ($2::text IS NULL OR kind = $2)
        AND ($3::timestamptz IS NULL OR at >= $3)
        AND ($4::timestamptz IS NULL OR at < $4)
      ORDER BY at DESC, id DESC
      LIMIT $5 OFFSET $6`,
    [f.actor ?? null, f.kind ?? null, f.from ?? null, f.to ?? null, f.limit, f.offset],
  );
  let total = rows[0]?.total ?? 0;
  if (rows.length === 0 && f.offset > 0) {
    const c = await q.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM audit_log
        WHERE ($1::text IS NULL OR actor_name = $1) AND ($2::text IS NULL OR kind = $2)
          AND ($3::timestamptz IS NULL OR at >= $3) AND ($4::timestamptz IS NULL OR at < $4)`,
      [f.actor ?? null, f.kind ?? null, f.from ?? null, f.to ?? null],
    );
    total = c[0]?.n ?? 0;
  }
  return {
    total,
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
