import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness.ts';

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  for (const [name, balance] of [
    ['bal-a', 999.97],
    ['bal-b', 2951.98],
    ['bal-c', 12000.5],
    ['bal-d', 5],
    ['bal-e', 100.1],
  ] as const) {
    await s.createUser({ username: name, balance });
  }
  // 130 more users straight in the table (no money: balance 0 needs no ledger row), with ties on
  // status, roles and creation time so the username decides between them.
  await s.db.query(
    `INSERT INTO users (username, email, password_hash, roles, status, created_at)
     SELECT 'pg-' || lpad(i::text, 3, '0'), 'pg' || i || '@example.com', 'x',
            CASE WHEN i % 7 = 0 THEN ARRAY['User', 'SMS'] ELSE ARRAY['User'] END,
            CASE WHEN i % 5 = 0 THEN 'Inactive' ELSE 'Active' END,
            timestamptz '2026-01-01' + (i / 4) * interval '1 hour'
       FROM generate_series(1, 130) i`,
  );
});
afterAll(async () => {
  await s.close();
});

type Answer = {
  users: { username: string; balance: number }[];
  total: number;
  totalPages: number;
  totalEstimated?: boolean;
  firstCursor?: string;
  lastCursor?: string;
};
const list = async (body: Record<string, unknown>): Promise<Answer> => {
  const res = await s.api(endpoints.userAdmin.getUser, { body: body, token: admin });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body as Answer;
};
const names = (a: Answer) => a.users.map((u) => u.username);

describe('User Manager', () => {
  it('sorts balances as numbers, over 1,000 too', async () => {
    const desc = await list({ search: 'bal-', sort: 'balance', dir: 'desc' });
    expect(desc.users.map((u) => u.balance)).toEqual([12000.5, 2951.98, 999.97, 100.1, 5]);
    const asc = await list({ search: 'bal-', sort: 'balance', dir: 'asc' });
    expect(names(asc)).toEqual(['bal-d', 'bal-e', 'bal-a', 'bal-b', 'bal-c']);
  });

  it.each([
    ['username', 'asc'],
    ['email', 'desc'],
    ['roles', 'asc'],
    ['status', 'desc'],
    ['balance', 'desc'],
    ['createdAt', 'asc'],
    ['createdAt', 'desc'],
  ])(
    'by %s %s: pages reached by key equal pages by number, the last page holds the rest',
    async (sort, dir) => {
      const base = { sort, dir, pageSize: 50 };
      const first = await list({ ...base, page: 1 });
      expect(first.totalEstimated).toBe(false);
      expect(first.totalPages).toBe(Math.ceil(first.total / 50));
      const byNumber: string[] = [];
      for (let page = 1; page <= first.totalPages; page++)
        byNumber.push(...names(await list({ ...base, page })));
      expect(new Set(byNumber).size).toBe(first.total);
      // Next, Next… from each page shown, then back from the last one.
      const byKey = [...names(first)];
      let shown = first;
      for (let page = 2; page <= first.totalPages; page++) {
        shown = await list({ ...base, page, after: shown.lastCursor, before: shown.firstCursor });
        byKey.push(...names(shown));
      }
      expect(byKey).toEqual(byNumber);
      const back = await list({ ...base, page: first.totalPages - 1, before: shown.firstCursor });
      expect(names(back)).toEqual(byNumber.slice((first.totalPages - 2) * 50, (first.totalPages - 1) * 50));
    },
  );

  it('searches inside usernames and emails, the search combined with the sort', async () => {
    const a = await list({ search: 'pg-01', sort: 'username', dir: 'desc' });
    expect(names(a)).toEqual([
      'pg-019',
      'pg-018',
      'pg-017',
      'pg-016',
      'pg-015',
      'pg-014',
      'pg-013',
      'pg-012',
      'pg-011',
      'pg-010',
    ]);
    const b = await list({ search: '12@example', sort: 'username' });
    expect(names(b)).toEqual(['pg-012', 'pg-112']);
  });

  it('refuses a cursor it did not give with a 400', async () => {
    expect(
      (await s.api(endpoints.userAdmin.getUser, { body: { page: 2, after: 'bm9wZQ' }, token: admin })).status,
    ).toBe(400);
  });
});
