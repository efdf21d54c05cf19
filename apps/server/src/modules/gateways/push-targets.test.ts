import { endpoints } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedGateway, waitFor } from '../../test/fixtures.ts';
import { openTestDb, startTestServer, type TestDb, type TestServer } from '../../test/harness.ts';
import { PUSH_TARGET_TTL_MS } from './push-targets.ts';

// Two servers on one database, as two processes behind a proxy: each keeps the push targets it read,
// and an admin's change made through one reaches the other's at once (an event, not the time limit).

let testDb: TestDb;
let a: TestServer;
let b: TestServer;

beforeAll(async () => {
  testDb = await openTestDb({ migrated: true });
  a = await startTestServer({ testDb });
  b = await startTestServer({ testDb });
});
afterAll(async () => {
  // stop(), not close(): close() would drop the database the other server still uses.
  await a.stop();
  await b.stop();
  await testDb.drop();
});

const portStatus = { port: '1A', st: '3 OK', iccid: '8901000000001', sn: '15550001001' };

describe('push targets kept in memory', () => {
  it('a gateway deleted or re-keyed through one server is refused by the other within moments', async () => {
    const gw = await seedGateway(testDb.db, { lastUpdate: new Date() });
    const url = `/api/gw/${gw.id}/secret/status`;
    // Both servers read the target and keep it.
    expect((await b.post(url, portStatus)).status).toBe(200);
    expect((await a.post(url, portStatus)).status).toBe(200);

    // A new MAC through A: B refuses a dev-status from the old MAC, well before the time limit.
    const admin = await a.adminToken();
    const [row] = await testDb.db.query<{ mac: string }>('SELECT mac FROM gateways WHERE id = $1', [gw.id]);
    const edited = await a.api(endpoints.gateway.update, {
      body: {
        gateway: {
          id: gw.id,
          name: 'renamed',
          url: 'http://127.0.0.1:9',
          mac: '02:00:00:00:00:42',
          userName: 'root',
          isEnable: true,
        },
      },
      token: admin,
    });
    expect(edited.status).toBe(200);
    const devStatus = (mac: string) => ({
      type: 'dev-status',
      mac,
      'max-ports': 1,
      'max-slot': 1,
      status: [{ port: '1.01', st: 3, iccid: '8901000000001', sn: '15550001001' }],
    });
    const started = Date.now();
    await waitFor(async () => (await b.post(url, devStatus(row!.mac))).status === 409);
    expect(Date.now() - started).toBeLessThan(PUSH_TARGET_TTL_MS / 10);
    expect((await b.post(url, devStatus('02-00-00-00-00-42'))).status).toBe(200);

    // Deleted through A: A refuses at once, B within moments.
    expect((await a.api(endpoints.gateway.delete, { body: { id: gw.id }, token: admin })).status).toBe(200);
    expect((await a.post(url, portStatus)).status).toBe(404);
    await waitFor(async () => (await b.post(url, portStatus)).status === 404);
    expect(Date.now() - started).toBeLessThan(PUSH_TARGET_TTL_MS / 10);
  });

  it('a wrong secret is refused even when the target is kept', async () => {
    const gw = await seedGateway(testDb.db, { lastUpdate: new Date() });
    expect((await b.post(`/api/gw/${gw.id}/secret/status`, portStatus)).status).toBe(200);
    expect((await b.post(`/api/gw/${gw.id}/wrong-secret/status`, portStatus)).status).toBe(401);
  });
});
