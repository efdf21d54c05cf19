import { COUNTRY_CODE_MESSAGE, endpoints, type Sim } from '@simdock/contract';
import { GatewaySim } from '@simdock/gateway-sim';
import { afterAll, describe, expect, it } from 'vitest';
import { addSimGateway } from '../../test/fixtures.ts';
import type { TestServer } from '../../test/harness.ts';
import { serverWithAdmin } from '../../test/suites.ts';

// An admin corrects a SIM's country and operator: shown with source `admin`, kept across scans,
// dropped when another card is seen in the slot, audited.

const DEVICE_PW = 'Dev1ce-Pa55-origin';

let s: TestServer;
let admin: string;
const sims: GatewaySim[] = [];

serverWithAdmin((t) => {
  ({ s, admin } = t);
});
afterAll(async () => {
  await Promise.all(sims.map((x) => x.stop()));
});

async function scannedGateway(): Promise<{ sim: GatewaySim; gw: { id: string } }> {
  const sim = await GatewaySim.start({ ports: 2, password: DEVICE_PW, carriers: ['de-vodafone', 'gb-ee'] });
  sims.push(sim);
  return { sim, gw: { id: await addSimGateway(s, admin, sim, `origin ${sims.length}`, DEVICE_PW) } };
}

async function simOn(gatewayId: string, port: string): Promise<Sim> {
  const r = await s.api(endpoints.gateway.report, { body: { id: gatewayId }, token: admin });
  expect(r.status).toBe(200);
  return r.body.sims.find((x) => x.port === port)!;
}

const setOrigin = (body: Record<string, unknown>, token = admin) =>
  s.api(endpoints.catalogue.setSimOrigin, { rawBody: body, token });

describe('a SIM’s country and operator', () => {
  it('shows the origin its IMSI tells', async () => {
    const { gw } = await scannedGateway();
    expect((await simOn(gw.id, '1.01')).origin).toEqual({
      country: 'DE',
      operator: 'Vodafone',
      source: 'imsi',
      corrected: false,
    });
    expect((await simOn(gw.id, '2.01')).origin).toMatchObject({ country: 'GB', source: 'imsi' });
  });

  it('an admin’s correction shows, survives a re-scan, is audited, and goes when the card is swapped', async () => {
    const { sim, gw } = await scannedGateway();
    const res = await setOrigin({ gatewayId: gw.id, port: '1.01', country: 'at', operator: ' A1 ' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      code: 1,
      msg: expect.stringContaining('AT'),
      sim: { port: '1.01', origin: { country: 'AT', operator: 'A1', source: 'admin', corrected: true } },
    });

    expect((await s.api(endpoints.gateway.scan, { body: { id: gw.id }, token: admin })).status).toBe(200);
    await sim.pushesSettled();
    expect((await simOn(gw.id, '1.01')).origin).toMatchObject({
      country: 'AT',
      operator: 'A1',
      source: 'admin',
    });

    const audit = await s.api(endpoints.audit.list, { body: { kind: 'gateway.simOrigin' }, token: admin });
    expect(audit.status).toBe(200);
    const entry = JSON.stringify(audit.body);
    expect(entry).toContain('"country":"DE"');
    expect(entry).toContain('"country":"AT"');

    sim.swapSim('1.01');
    await sim.pushesSettled();
    expect((await simOn(gw.id, '1.01')).origin).toEqual({
      country: 'DE',
      operator: 'Vodafone',
      source: 'imsi',
      corrected: false,
    });
  });

  it('null country and operator clear the correction; an operator alone keeps the IMSI’s country', async () => {
    const { gw } = await scannedGateway();
    const op = await setOrigin({ gatewayId: gw.id, port: '2.01', country: null, operator: 'EE Business' });
    expect(op.status).toBe(200);
    expect(op.body.sim.origin).toEqual({
      country: 'GB',
      operator: 'EE Business',
      source: 'imsi',
      corrected: true,
    });
    const cleared = await setOrigin({ gatewayId: gw.id, port: '2.01', country: null, operator: null });
    expect(cleared.status).toBe(200);
    expect(cleared.body.sim.origin).toMatchObject({ country: 'GB', source: 'imsi', corrected: false });
    expect(cleared.body.sim.origin.operator).not.toBe('EE Business');
  });

  it('refuses a country that is not one (400, the contract’s message), an unknown port (404)', async () => {
    const { gw } = await scannedGateway();
    for (const country of ['XX', 'Germany', '1', '']) {
      const bad = await setOrigin({ gatewayId: gw.id, port: '1.01', country });
      expect(bad.status, country).toBe(400);
      expect(bad.body).toMatchObject({ code: 0, msg: COUNTRY_CODE_MESSAGE });
    }
    expect((await setOrigin({ gatewayId: gw.id, port: '9.01', country: 'DE' })).status).toBe(404);
    expect((await simOn(gw.id, '1.01')).origin.corrected).toBe(false);
  });

  it('is for admins only', async () => {
    const { gw } = await scannedGateway();
    const u = await s.createUser();
    expect((await setOrigin({ gatewayId: gw.id, port: '1.01', country: 'DE' }, u.token)).status).toBe(403);
    expect((await s.api(endpoints.catalogue.setSimOrigin, { rawBody: {} })).status).toBe(401);
  });
});
