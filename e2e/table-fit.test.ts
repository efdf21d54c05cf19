import { DEMO_GATEWAY, DEMO_USER } from '@simdock/server';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type E2E, loginWithToken, settle, shot, startE2E, watchErrors } from './harness.ts';

// The wide tables fit a 1280 px screen with realistic rows: Order Manager (long user and
// gateway names, codes, every status), Payment Manager (finished payments, a flagged one), the
// Dashboard's rentals once an SMS text shows, and a gateway's SIM panel. Each table's own scroll box
// must not scroll sideways (scrollWidth <= clientWidth), nor the page; at 390 px the page still fits.

let e: E2E;
/** The longest username the rules allow (16) and long device names: the widest honest rows. */
const LONG_USER = 'nguyenthanhhai99';
const LONG_GATEWAY = 'Hanoi rack 3 — second floor';
/** An SMS as services send them: long, one line. */
const SMS_TEXT =
  'Telegram code: 48213. Do not give this code to anyone, even if they say they are from Telegram! This code can be used to log in to your Telegram account.';

beforeAll(async () => {
  e = await startE2E({ workers: true, env: { DEMO: 'true', CANCEL_MIN_SECONDS: '0' } });
  // The demo user rents Telegram and the SMS arrives: the Dashboard's row shows the code and the text.
  const token = await e.token(DEMO_USER.username, DEMO_USER.password);
  const rented = await e.api<{ data: { id: string } }>('/api/Order/create', { serviceCode: 'tg' }, token);
  if (rented.status !== 200) throw new Error(`rent failed: ${rented.status}`);
  await e.api('/api/Order/create', { serviceCode: 'wa' }, token);
  const [order] = await e.db.query<{ gateway_id: string; port: string; phone_number: string }>(
    'SELECT gateway_id, port, phone_number FROM orders WHERE id = $1',
    [rented.body.data.id],
  );
  const adminToken = await e.token(ADMIN.username, ADMIN.password);
  const sms = await e.api(
    '/api/Admin/simulateSms',
    { gatewayId: order!.gateway_id, port: order!.port, from: '42777', text: SMS_TEXT },
    adminToken,
  );
  if (sms.status !== 200) throw new Error(`simulateSms failed: ${sms.status}`);

  // Order Manager and Payment Manager rows: a 16-character user, a long gateway name, every status.
  const user = await e.createUser({ username: LONG_USER });
  await e.db.query('UPDATE gateways SET name = $1 WHERE mac = $2', [
    LONG_GATEWAY,
    DEMO_GATEWAY.mac.replace(/-/g, ':'),
  ]);
  const [gw] = await e.db.query<{ id: string; name: string }>(
    'SELECT id::text AS id, name FROM gateways WHERE name = $1',
    [LONG_GATEWAY],
  );
  // A locked SIM in the SIM panel: its badge, reason and time left are the State column's widest
  // content (the demo's failing sends may lock one at any moment; here one always is).
  const locked = await e.api(
    '/api/Admin/lockSim',
    {
      gatewayId: gw!.id,
      port: '16.01',
      reason: 'Checking the balance with the carrier before reuse',
      minutes: 60,
    },
    adminToken,
  );
  if (locked.status !== 200) throw new Error(`lockSim failed: ${locked.status}`);
  const statuses = ['SUCCESS', 'WAIT_CODE', 'CANCEL', 'SUCCESS', 'WAIT_CODE', 'CANCEL'];
  for (const [i, status] of statuses.entries()) {
    const at = new Date(Date.now() - (i + 1) * 3_600_000);
    await e.db.query(
      `INSERT INTO orders (user_id, service_id, service_code, service_name, gateway_id, gateway_name, port,
                           phone_number, price, status, code_text, created_at, expires_at, finished_at)
       SELECT $1, id, code, name, $2, $3, $4, $5, price, $6, $7, $8, $9, $10 FROM services WHERE code = $11`,
      [
        user.id,
        gw!.id,
        gw!.name,
        `${i + 10}.01`,
        `1202555${String(1000 + i).padStart(4, '0')}`,
        status,
        status === 'SUCCESS' ? '123-456' : null,
        at,
        new Date(at.getTime() + 20 * 60_000),
        status === 'WAIT_CODE' ? null : at,
        i % 2 ? 'wa' : 'fb',
      ],
    );
  }
  const payments = [
    { status: 'DONE', gw: 'finished', amount: '1250.00', real: '1250.00', flag: null },
    { status: 'DONE', gw: 'partially_paid', amount: '100.00', real: '47.35', flag: 'repeat_deposit' },
    { status: 'FAILED', gw: 'refunded', amount: '25.00', real: '25.00', flag: 'refunded_after_credit' },
    { status: 'PENDING', gw: 'waiting', amount: '10.00', real: '0', flag: null },
  ];
  for (const [i, p] of payments.entries()) {
    const at = new Date(Date.now() - (i + 1) * 86_400_000);
    await e.db.query(
      `INSERT INTO payments (id, user_id, provider, provider_invoice_id, url, amount, amount_real, status,
                             gw_status, flag, created_at, updated_at, finished_at)
       VALUES (gen_random_uuid(), $1, 'sandbox', $2, $3, $4, $5, $6, $7, $8, $9, $9, $10)`,
      [
        user.id,
        `inv-fit-${i}`,
        `${e.url}/sandbox/pay/inv-fit-${i}`,
        p.amount,
        p.real,
        p.status,
        p.gw,
        p.flag,
        at,
        p.status === 'PENDING' ? null : new Date(at.getTime() + 6 * 60_000),
      ],
    );
  }
}, 120_000);
afterAll(async () => {
  await e?.close();
});

/** Every table's scroll box that scrolls sideways: its caption (or first header) and the overflow in px. */
async function overflowingTables(page: Page): Promise<string[]> {
  // A string expression: the e2e code is typechecked without the DOM library.
  return page.evaluate(`[...document.querySelectorAll('table')].flatMap((table) => {
    const box = table.parentElement;
    const over = box.scrollWidth - box.clientWidth;
    const name = table.caption?.textContent || table.querySelector('th')?.textContent || '?';
    return over > 0 ? [name + ': ' + over + ' px'] : [];
  })`);
}

const pageFits = (page: Page) =>
  page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth');

async function open(who: { username: string; password: string }, path: string, width: number) {
  const page = await e.newPage({ viewport: { width, height: width > 500 ? 800 : 844 } });
  const errors = watchErrors(page);
  await loginWithToken(page, e, who);
  await page.goto(path);
  return { page, errors };
}

describe('wide tables at 1280 px', () => {
  it('Order Manager: every column in view, services by name', async () => {
    for (const width of [1280, 390]) {
      const { page, errors } = await open(ADMIN, '/ordermanager', width);
      await page.getByRole('heading', { level: 1, name: 'Order Manager' }).waitFor();
      await page.getByText(LONG_USER).first().waitFor();
      await settle(page);
      await shot(page, `table-fit-ordermanager-${width}`);
      if (width === 1280) {
        const table = page.getByRole('table', { name: 'Orders', exact: true });
        // The service's name, not its code ("fb"); the code stays in the tooltip.
        await table.getByRole('cell', { name: 'Facebook', exact: true }).first().waitFor();
        expect(await table.getByRole('cell', { name: 'fb', exact: true }).count()).toBe(0);
        expect(await overflowingTables(page)).toEqual([]);
      }
      expect(await pageFits(page)).toBe(true);
      expect(errors).toEqual([]);
    }
  });

  it('Payment Manager: Finished At in view', async () => {
    for (const width of [1280, 390]) {
      const { page, errors } = await open(ADMIN, '/paymentmanager', width);
      await page.getByRole('heading', { level: 1, name: 'Payment Manager' }).waitFor();
      await page.getByText(LONG_USER).first().waitFor();
      await settle(page);
      await shot(page, `table-fit-paymentmanager-${width}`);
      if (width === 1280) expect(await overflowingTables(page)).toEqual([]);
      expect(await pageFits(page)).toBe(true);
      expect(errors).toEqual([]);
    }
  });

  it('Dashboard: the rentals list with an SMS text', async () => {
    for (const width of [1280, 390]) {
      const { page, errors } = await open(DEMO_USER, '/dashboard', width);
      await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
      await page
        .getByText(/Do not give this code/)
        .first()
        .waitFor();
      await settle(page);
      await shot(page, `table-fit-dashboard-${width}`);
      if (width === 1280) expect(await overflowingTables(page)).toEqual([]);
      expect(await pageFits(page)).toBe(true);
      expect(errors).toEqual([]);
    }
  });

  it('Gateway Manager: the SIM panel with Role and Simulate SMS in view', async () => {
    for (const width of [1280, 390]) {
      const { page, errors } = await open(ADMIN, '/gatewaymanager', width);
      await page.getByRole('heading', { level: 1, name: 'Gateway Manager' }).waitFor();
      const row = page.getByRole('row').or(page.getByRole('listitem')).filter({ hasText: LONG_GATEWAY });
      await row.getByRole('button', { name: 'SIMs' }).click();
      const panel = page.getByRole('region', { name: `SIMs of ${LONG_GATEWAY}` });
      await panel.getByText('+1 ').first().waitFor();
      await settle(page);
      await shot(page, `table-fit-sims-${width}`);
      if (width === 1280) {
        expect(await overflowingTables(page)).toEqual([]);
        // Simulate SMS stays one click or two away on every row (inline or in the row's menu).
        const first = panel.getByRole('group', { name: /^Actions for Port / }).first();
        await first.waitFor();
      }
      expect(await pageFits(page)).toBe(true);
      expect(errors).toEqual([]);
    }
  });
});
