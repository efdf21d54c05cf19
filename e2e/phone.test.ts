import { PhoneSim } from '@simdock/phone-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, type E2E, loginViaUi, shot, startE2E, watchErrors } from './harness.ts';

// An Android phone running SMSGate, in the browser: the admin adds it in Gateway Manager (the device
// kind, its mode and the app's credentials and signing key), scans it (its SIMs appear as SIM 1 and
// SIM 2, its webhooks are registered), and a user's rental receives its code through the phone's
// signed `sms:received` webhook, live on the Dashboard.

let e: E2E;
let phone: PhoneSim;

const SLOTS = [
  { phoneNumber: '+12025550711', iccid: '8901260000000000711', carrierName: 'T-Mobile' },
  { phoneNumber: '+12025550712', iccid: '8901260000000000712', carrierName: 'AT&T' },
];

beforeAll(async () => {
  e = await startE2E();
  phone = await PhoneSim.start({
    mode: 'local',
    username: 'sms',
    password: 'phone-pass',
    signingKey: 'e2e-signing-key',
    slots: SLOTS,
    name: 'google/pixel7',
    allowHttpWebhooks: true,
  });
  const admin = await e.token(ADMIN.username, ADMIN.password);
  const service = await e.api(
    '/api/service/update',
    { name: 'Telegram', code: 'tg', price: 0.5, textContains: 'Telegram', pattern: '(\\d{5})' },
    admin,
  );
  expect(service.status).toBe(200);
});

afterAll(async () => {
  await phone?.stop();
  await e?.close();
});

describe('an Android phone as a gateway', () => {
  it('is added and scanned in Gateway Manager, and a rented number receives its code through it', async () => {
    const page = await e.newPage();
    const errors = watchErrors(page);
    await loginViaUi(page, ADMIN);
    await page
      .getByRole('navigation', { name: 'Main navigation' })
      .getByRole('link', { name: 'Gateway Manager' })
      .click();
    await page.getByRole('heading', { level: 1, name: 'Gateway Manager' }).waitFor();

    await page.getByRole('button', { name: 'Add Gateway' }).first().click();
    const add = page.getByRole('dialog', { name: 'Add Gateway' });
    await add.getByRole('radio', { name: 'Android phone (SMSGate)' }).check();
    // A phone has no MAC; it has a mode, a device id and a signing key.
    expect(await add.getByLabel('MAC').count()).toBe(0);
    await add.getByRole('radio', { name: 'Local' }).check();
    await add.getByLabel('Name', { exact: true }).fill('Pixel on the desk');
    await add.getByLabel('URL').fill(phone.baseUrl);
    await add.getByLabel('User name').fill('sms');
    await add.getByLabel('Password').fill('phone-pass');
    await add.getByLabel('Signing key').fill('e2e-signing-key');
    await add.getByText('Data is valid').waitFor();
    await shot(page, 'gateways-add-phone');
    await add.getByRole('button', { name: 'Save' }).click();
    await add.waitFor({ state: 'detached' });

    const row = page.getByRole('row', { name: /Pixel on the desk/ });
    await row.waitFor();
    await row.getByText(/Phone/).first().waitFor();
    await row.getByRole('button', { name: 'Scan' }).click();
    await row.getByText('Online', { exact: true }).waitFor();
    await expect.poll(() => row.getByTestId('gateway-sim-count').textContent()).toBe('2');
    // The scan learned the phone's id and registered its webhooks to the gateway's one URL.
    // Shortened in the middle on screen (never broken mid-word), whole in its tooltip and copy button.
    const deviceId = row.getByTestId('phone-device-id');
    await expect.poll(() => deviceId.getAttribute('data-value')).toBe(phone.deviceId);
    expect(await deviceId.textContent()).toBe(`${phone.deviceId.slice(0, 6)}…${phone.deviceId.slice(-6)}`);
    expect(
      phone
        .webhooks()
        .map((w) => w.event)
        .sort(),
    ).toEqual(
      ['mms:downloaded', 'sms:delivered', 'sms:failed', 'sms:received', 'sms:sent', 'system:ping'].sort(),
    );

    await row.getByRole('button', { name: 'SIMs' }).click();
    const panel = page.getByRole('region', { name: 'SIMs of Pixel on the desk' });
    await panel.getByRole('cell', { name: 'SIM 1', exact: true }).waitFor();
    await panel.getByRole('cell', { name: 'SIM 2', exact: true }).waitFor();
    await panel.getByText('+1 202-555-0711', { exact: true }).waitFor();
    await shot(page, 'gateways-phone-sims');

    // A user rents a Telegram number: it is one of the phone's SIMs.
    const user = await e.createUser({ balance: 5 });
    const dash = await e.newPage();
    const dashErrors = watchErrors(dash);
    await loginViaUi(dash, user);
    await dash.getByRole('button', { name: 'Rent a Telegram number' }).click();
    const order = dash
      .getByRole('row')
      .filter({ hasText: 'Telegram' })
      .filter({ hasText: 'Waiting for code' });
    await order.waitFor();
    const number = (await order.getByTestId('order-phone').getAttribute('data-value'))!;
    const slot = SLOTS.findIndex((x) => x.phoneNumber === `+${number}`);
    expect(slot).toBeGreaterThanOrEqual(0);

    // The service's SMS reaches the phone; the phone's signed webhook brings it; the code shows.
    phone.injectSms({ slot: slot + 1, from: 'Telegram', text: 'Telegram code: 48213. Do not share it.' });
    await dash.getByText('48213').first().waitFor();
    await shot(dash, 'rental-code-through-phone');

    // At a phone's width the gateway list stays usable.
    const narrow = await e.newPage({ viewport: { width: 390, height: 844 } });
    await loginViaUi(narrow, ADMIN);
    await narrow.goto(`${e.url}/gatewaymanager`);
    await narrow.getByText('Pixel on the desk').filter({ visible: true }).first().waitFor();
    await shot(narrow, 'gateways-phone-narrow');
    expect(await narrow.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    expect(errors).toEqual([]);
    expect(dashErrors).toEqual([]);
  });
});
