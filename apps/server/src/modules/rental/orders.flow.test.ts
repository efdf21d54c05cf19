import { endpoints } from '@simdock/contract';
import { GatewaySim } from '@simdock/gateway-sim';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerMismatches } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { openSse } from '../../test/sse.ts';

// The whole rental path over real HTTP: a simulated gateway speaking the device protocol, the
// admin API to add and scan it, a user renting, the device pushing the service's SMS, and the
// code reaching the user's SSE stream.

let s: TestServer;
let sim: GatewaySim;
let admin: string;

beforeAll(async () => {
  s = await startTestServer();
  sim = await GatewaySim.start({ ports: 4, seed: 11 });
  admin = await s.adminToken();
  const gw = await s.api(endpoints.gateway.update, {
    body: {
      gateway: {
        name: 'box-1',
        url: sim.url,
        mac: sim.mac,
        userName: 'root',
        password: 'root',
        isEnable: true,
      },
    },
    token: admin,
  });
  expect(gw.status).toBe(200);
  const scanned = await s.api(endpoints.gateway.scan, { body: { id: gw.body.id }, token: admin });
  expect(scanned.body).toMatchObject({ totalSIM: 4, onlineStatus: 'Online' });
  await s.api(endpoints.service.update, {
    body: { name: 'Telegram', code: 'tg', price: 0.5, textContains: 'Telegram', pattern: '(\\d{5})' },
    token: admin,
  });
});

afterAll(async () => {
  await sim?.stop();
  expect(await ledgerMismatches(s.db)).toEqual([]);
  await s?.close();
});

describe('rent → device SMS → code at the SSE client', () => {
  it('delivers the extracted code live and keeps the full text', async () => {
    const u = await s.createUser({ balance: 2 });
    const stream = await openSse(`${s.url}/api/Order/stream`, u.token);
    try {
      const rented = await s.api(endpoints.order.create, { body: { serviceCode: 'tg' }, token: u.token });
      expect(rented.status).toBe(200);
      const order = rented.body.data;
      const slot = sim.slots().find((x) => x.sn === order.phoneNumber);
      expect(slot).toBeDefined();

      sim.injectSms({
        port: slot!.port,
        from: 'Telegram',
        text: 'Telegram code: 70412. Do not give it to anyone.',
      });
      const ev = await stream.next((e) => e.event === 'order' && JSON.parse(e.data).status === 'SUCCESS');
      expect(JSON.parse(ev.data)).toMatchObject({
        id: order.id,
        codeText: '70412',
        smsText: 'Telegram code: 70412. Do not give it to anyone.',
      });
      const info = await s.api(endpoints.user.info, { token: u.token });
      expect(info.body.balance).toBe(1.5);
    } finally {
      stream.close();
    }
  });
});
