import { endpoints, PAGE_COUNT_CAP } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addService, seedGateway } from '../../test/fixtures.ts';
import { type ApiCall, startTestServer, type TestServer } from '../../test/harness.ts';

// Order Manager's deep pages (docs/architecture.md#paged-lists): more orders than the exact count's cap,
// so the total is an estimate and the far pages are read by key or from the end.
const ORDERS = PAGE_COUNT_CAP + 250;

let s: TestServer;
let admin: string;
beforeAll(async () => {
  s = await startTestServer();
  admin = await s.adminToken();
  const gwA = await seedGateway(s.db, { name: 'alpha', sims: 2, lastUpdate: s.clock.now() });
  const gwB = await seedGateway(s.db, { name: 'beta', sims: 2, lastUpdate: s.clock.now(), numberBase: 500 });
  const svc = await addService(s.db, { code: 'tg', name: 'Telegram' });
  const u = await s.createUser({ username: 'buyer' });
  await s.db.query(
    `INSERT INTO orders (user_id, service_id, service_code, service_name, gateway_id, gateway_name, port,
                         phone_number, price, status, code_text, created_at, expires_at)
     SELECT $1, $2, 'tg', 'Telegram', CASE WHEN i % 4 = 0 THEN $4::uuid ELSE $3::uuid END,
            CASE WHEN i % 4 = 0 THEN 'beta' ELSE 'alpha' END, '1.01', '1777' || lpad(i::text, 6, '0'), 1,
            CASE WHEN i % 3 = 0 THEN 'SUCCESS' WHEN i % 3 = 1 THEN 'CANCEL' ELSE 'WAIT_CODE' END,
            CASE WHEN i % 3 = 0 THEN '1234' END, now(), now() + interval '20 minutes'
       FROM generate_series(1, ${ORDERS}) i`,
    [u.id, svc, gwA.id, gwB.id],
  );
  // Unmatched SMS, several at the same moment: the key's tie-breaker keeps pages apart.
  await s.db.query(
    `INSERT INTO incoming_sms (gateway_id, port, sender, body, received_at, dedupe_key, matched)
     SELECT $1, '1.01', 'promo', 'text ' || i, now() - (i / 3) * interval '1 second', 'paging:' || i, i % 5 = 0
       FROM generate_series(1, 95) i`,
    [gwA.id],
  );
});
afterAll(async () => {
  await s.close();
});

type Page = {
  items: { id: string; status: string; gateway: string; phoneNumber: string }[];
  page: number;
  total: number;
  totalPages: number;
  totalEstimated?: boolean;
  firstCursor?: string;
  lastCursor?: string;
};
const get = async <E extends typeof endpoints.order.adminOrders | typeof endpoints.gateway.inbox>(
  endpoint: E,
  query: ApiCall<E>['query'],
): Promise<Page> => {
  const res = await s.api(endpoint, { query, token: admin });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  // Both lists page alike: the fields read here.
  return res.body as unknown as Page;
};
const ids = (p: Page) => p.items.map((o) => o.id);

/** The same page straight from the table, by offset: what a page must hold whatever way it was reached. */
async function byOffset(where: string, params: unknown[], page: number, size = 100): Promise<string[]> {
  const rows = await s.db.query<{ id: string }>(
    `SELECT o.id::text AS id FROM orders o ${where} ORDER BY o.id DESC LIMIT ${size} OFFSET ${(page - 1) * size}`,
    params,
  );
  return rows.map((r) => r.id);
}

describe('Order Manager deep pages', () => {
  it('above the cap the total is an estimate, marked so, and pages reached by key equal pages by offset', async () => {
    const p1 = await get(endpoints.order.adminOrders, { page: 1, pageSize: 100 });
    expect(p1.totalEstimated).toBe(true);
    expect(p1.total).toBeGreaterThan(PAGE_COUNT_CAP);
    expect(p1.totalPages).toBe(Math.ceil(p1.total / 100));
    expect(ids(p1)).toEqual(await byOffset('', [], 1));

    // Next, then a jump of five pages forward, then two back: each from the page on screen.
    const p2 = await get(endpoints.order.adminOrders, { page: 2, pageSize: 100, after: p1.lastCursor });
    expect(ids(p2)).toEqual(await byOffset('', [], 2));
    const p7 = await get(endpoints.order.adminOrders, {
      page: 7,
      pageSize: 100,
      after: p2.lastCursor,
      before: p2.firstCursor,
    });
    expect(ids(p7)).toEqual(await byOffset('', [], 7));
    const p5 = await get(endpoints.order.adminOrders, {
      page: 5,
      pageSize: 100,
      after: p7.lastCursor,
      before: p7.firstCursor,
    });
    expect(ids(p5)).toEqual(await byOffset('', [], 5));
    expect(p5.page).toBe(5);
  });

  it('the last page holds the oldest orders, and the page before it continues them', async () => {
    const p1 = await get(endpoints.order.adminOrders, { page: 1, pageSize: 100 });
    const last = await get(endpoints.order.adminOrders, { page: p1.totalPages, pageSize: 100 });
    const oldest = await s.db.query<{ id: string }>(
      `SELECT o.id::text AS id FROM orders o ORDER BY o.id ASC LIMIT 100`,
    );
    expect(ids(last)).toEqual(oldest.map((r) => r.id).reverse());
    const before = await get(endpoints.order.adminOrders, {
      page: p1.totalPages - 1,
      pageSize: 100,
      before: last.firstCursor,
    });
    const next = await s.db.query<{ id: string }>(
      `SELECT o.id::text AS id FROM orders o ORDER BY o.id ASC LIMIT 100 OFFSET 100`,
    );
    expect(ids(before)).toEqual(next.map((r) => r.id).reverse());
  });

  it('under the cap the total is exact and every page, by offset or by key, is the table read by offset', async () => {
    const where = `WHERE status = 'SUCCESS'`;
    const [{ n }] = (await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders ${where}`)) as [
      { n: number },
    ];
    const p1 = await get(endpoints.order.adminOrders, { status: 'SUCCESS', pageSize: 100 });
    expect(p1.totalEstimated).toBe(false);
    expect(p1.total).toBe(n);
    const pages = Math.ceil(n / 100);
    expect(p1.totalPages).toBe(pages);
    // The last page (read from the end) has the remainder, not a full page.
    const last = await get(endpoints.order.adminOrders, { status: 'SUCCESS', pageSize: 100, page: pages });
    expect(last.items).toHaveLength(n - (pages - 1) * 100);
    expect(ids(last)).toEqual(await byOffset(where, [], pages));
    // Back from the last page by key, and a page in the second half by number alone.
    const prev = await get(endpoints.order.adminOrders, {
      status: 'SUCCESS',
      pageSize: 100,
      page: pages - 1,
      before: last.firstCursor,
    });
    expect(ids(prev)).toEqual(await byOffset(where, [], pages - 1));
    const mid = Math.ceil(pages / 2) + 1;
    expect(
      ids(await get(endpoints.order.adminOrders, { status: 'SUCCESS', pageSize: 100, page: mid })),
    ).toEqual(await byOffset(where, [], mid));
    // A page beyond the last is empty, with the same total.
    const beyond = await get(endpoints.order.adminOrders, {
      status: 'SUCCESS',
      pageSize: 100,
      page: pages + 3,
    });
    expect(beyond).toMatchObject({ items: [], total: n });
  });

  it('filters combine, each on its own condition', async () => {
    const where = `WHERE status = 'CANCEL' AND gateway_name = 'beta' AND phone_number LIKE '%00%'`;
    const [{ n }] = (await s.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM orders ${where}`)) as [
      { n: number },
    ];
    expect(n).toBeGreaterThan(100);
    const p1 = await get(endpoints.order.adminOrders, {
      status: 'CANCEL',
      gateway: 'beta',
      phoneNumber: '00',
      pageSize: 100,
    });
    expect(p1).toMatchObject({ total: n, totalEstimated: false });
    expect(ids(p1)).toEqual(await byOffset(where, [], 1));
    const p2 = await get(endpoints.order.adminOrders, {
      status: 'CANCEL',
      gateway: 'beta',
      phoneNumber: '00',
      pageSize: 100,
      page: 2,
      after: p1.lastCursor,
    });
    expect(ids(p2)).toEqual(await byOffset(where, [], 2));
    expect(
      p2.items.every((o) => o.status === 'CANCEL' && o.gateway === 'beta' && o.phoneNumber.includes('00')),
    ).toBe(true);
    // A LIKE wildcard in the search is taken literally.
    expect((await get(endpoints.order.adminOrders, { phoneNumber: '%' })).total).toBe(0);
  });

  it('refuses a cursor it did not give with a 400', async () => {
    const res = await s.api(endpoints.order.adminOrders, {
      query: { page: 2, after: 'not-a-cursor' },
      token: admin,
    });
    expect(res.status).toBe(400);
  });
});

describe('unmatched SMS pages', () => {
  it('pages by key equal pages by offset, ties on the time kept apart', async () => {
    const all = await s.db.query<{ id: string }>(
      `SELECT m.id::text AS id FROM incoming_sms m WHERE NOT matched AND NOT is_report ORDER BY received_at DESC, m.id DESC`,
    );
    expect(all).toHaveLength(76);
    const get20 = (q: { page: number; after?: string }) =>
      get(endpoints.gateway.inbox, { matched: 'false', pageSize: 20, ...q });
    const p1 = await get20({ page: 1 });
    expect(p1).toMatchObject({ total: 76, totalPages: 4 });
    const seen = [...ids(p1)];
    let shown = p1;
    for (let page = 2; page <= 4; page++) {
      shown = await get20({ page, after: shown.lastCursor });
      seen.push(...ids(shown));
    }
    expect(seen).toEqual(all.map((r) => r.id));
    const last = await get20({ page: 4 });
    expect(ids(last)).toEqual(all.slice(60).map((r) => r.id));
  });
});
