import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { insertAudit } from './audit.queries.ts';
import { auditModule, pruneAuditLog } from './index.ts';

// The audit log keeps AUDIT_RETENTION_DAYS (docs/operations.md, "Data retention"): entries older
// than that are deleted, in batches, and every younger one stays; 0 keeps them all.

let s: TestServer;
const DAY = 86_400_000;

beforeAll(async () => {
  s = await startTestServer({ env: { AUDIT_RETENTION_DAYS: '30' } });
});
afterAll(async () => {
  await s.close();
});

const entry = (at: Date, n: number) => ({
  at,
  actorId: null,
  actorName: 'ops',
  kind: 'user.update',
  targetId: String(n),
  targetLabel: `u${n}`,
  before: null,
  after: { n },
});

describe('audit retention', () => {
  it('deletes exactly the entries older than the limit, across several batches', async () => {
    const now = s.clock.now().getTime();
    await s.db.query('DELETE FROM audit_log');
    // 12,000 entries over 60 days (more than two batches older than 30 days), and two at the edge.
    await s.db.query(
      `INSERT INTO audit_log (at, actor_name, kind, target_label)
       SELECT $1::timestamptz - (g * interval '432 seconds'), 'ops', 'user.update', 'u' || g
         FROM generate_series(1, 12000) g`,
      [new Date(now)],
    );
    await insertAudit(s.db, entry(new Date(now - 30 * DAY - 1), 1));
    await insertAudit(s.db, entry(new Date(now - 30 * DAY + 1000), 2));
    const cutoff = new Date(now - 30 * DAY);
    const count = async (sql: string) => (await s.db.query<{ n: number }>(sql, [cutoff]))[0]!.n;
    const old = await count('SELECT count(*)::int AS n FROM audit_log WHERE at < $1');
    const young = await count('SELECT count(*)::int AS n FROM audit_log WHERE at >= $1');
    expect(old).toBeGreaterThan(5000);
    expect(await pruneAuditLog(s.ctx)).toBe(old);
    expect(await count('SELECT count(*)::int AS n FROM audit_log WHERE at < $1')).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM audit_log WHERE at >= $1')).toBe(young);
    const labels = await s.db.query<{ target_label: string }>(
      `SELECT target_label FROM audit_log WHERE target_label IN ('u1', 'u2') AND actor_name = 'ops' AND target_id IS NOT NULL`,
    );
    expect(labels.map((r) => r.target_label)).toEqual(['u2']);
    expect(await pruneAuditLog(s.ctx)).toBe(0);
  });

  it('keeps everything with 0', async () => {
    const at = new Date(s.clock.now().getTime() - 5000 * DAY);
    await insertAudit(s.db, entry(at, 3));
    s.ctx.config.AUDIT_RETENTION_DAYS = 0;
    try {
      expect(await pruneAuditLog(s.ctx)).toBe(0);
      const [row] = await s.db.query<{ n: number }>(
        'SELECT count(*)::int AS n FROM audit_log WHERE at = $1',
        [at],
      );
      expect(row!.n).toBe(1);
    } finally {
      s.ctx.config.AUDIT_RETENTION_DAYS = 30;
    }
    expect(auditModule.jobs!.map((j) => j.name)).toEqual(['audit-retention']);
  });
});
