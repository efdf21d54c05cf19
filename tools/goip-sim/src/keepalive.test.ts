import { afterEach, describe, expect, it } from 'vitest';
import type { GoipSimOptions } from './options.ts';
import { fieldsOf } from './protocol.ts';
import { startBoxAndServer, type TestServerOptions, until } from './testkit.ts';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function setup(server: TestServerOptions = {}, opts: Partial<GoipSimOptions> = {}) {
  const { srv, sim, stop } = await startBoxAndServer(server, { keepaliveMs: 60, seed: 7, ...opts }, 0);
  cleanup.push(stop);
  return { srv, sim };
}

describe('keepalives', () => {
  it('each line sends its identity and counts up from 1, from a source port of its own', async () => {
    const { srv, sim } = await setup(
      {},
      { lines: 4, idPrefix: 'box7-', passwords: ['p1', 'p2', 'p3', 'p4'] },
    );
    const kas = await srv.waitFor((d) => d.text.startsWith('req:') && d.text.includes('id:box7-2;'), 3);
    const counts = kas.map((d) => Number(fieldsOf(d.text).get('req')));
    expect(counts).toEqual([1, 2, 3]);
    const f = fieldsOf(kas[0]!.text);
    const line = sim.line(2);
    expect(Object.fromEntries(f)).toMatchObject({
      id: 'box7-2',
      pass: 'p2',
      num: line.sim.number,
      signal: String(line.sim.signal),
      gsm_status: 'LOGIN',
      voip_status: 'LOGOUT',
      imei: line.sim.imei,
      imsi: line.sim.imsi,
      iccid: line.sim.iccid,
      pro: 'T-Mobile',
    });
    expect(kas[0]!.text).toMatch(/^req:1;id:box7-2;pass:p2;num:\d{11};signal:\d+;gsm_status:LOGIN;/);
    expect(line.sim.imsi).toMatch(/^310260\d{9}$/);
    expect(line.sim.iccid).toMatch(/^8901260\d{12}$/);

    await srv.waitFor((d) => d.text.startsWith('req:1;'), 4);
    const ports = sim.lines().map((l) => l.sourcePort);
    expect(new Set(ports).size).toBe(4);
    for (const l of sim.lines()) {
      expect(srv.lineAddress(l.id)?.port).toBe(l.sourcePort);
    }
    await until(() => sim.lines().every((l) => l.registered));
  });

  it('a line on another carrier reports its number, IMSI, ICCID and pro', async () => {
    const { srv, sim } = await setup({}, { lines: 2, carriers: ['vn-viettel', 'gb-ee'] });
    const kas = await srv.waitFor((d) => d.text.startsWith('req:') && d.text.includes('id:goip1;'), 1);
    const f = Object.fromEntries(fieldsOf(kas[0]!.text));
    expect(f).toMatchObject({ pro: 'Viettel', num: expect.stringMatching(/^84[39]\d{8}$|^848\d{8}$/) });
    expect(f.imsi).toMatch(/^45204\d{10}$/);
    expect(f.iccid).toMatch(/^898404\d{13}$/);
    expect(sim.line(2).sim).toMatchObject({ carrier: 'EE', imsi: expect.stringMatching(/^23430\d{10}$/) });
    expect(sim.line(2).sim.number).toMatch(/^447\d{9}$/);
    // The own-number USSD answers the carrier's number.
    expect(sim.line(1).sim.ussd['*#100#']).toBe(`Your number is +${f.num}`);
    const { sim: again } = await setup(
      {},
      { lines: 2, carriers: ['vn-viettel', 'gb-ee'], keepaliveMs: 60_000 },
    );
    expect(again.lines().map((l) => l.sim)).toEqual(sim.lines().map((l) => l.sim));
  });

  it('a seed gives the same identities every run', async () => {
    const { sim } = await setup({}, { lines: 2, keepaliveMs: 60_000 });
    const { sim: again } = await setup({}, { lines: 2, keepaliveMs: 60_000 });
    expect(again.lines().map((l) => l.sim)).toEqual(sim.lines().map((l) => l.sim));
    expect(sim.line(1).sim.number).not.toBe(sim.line(2).sim.number);
    expect(sim.line(1).sim.imei).not.toBe(sim.line(2).sim.imei);
  });

  it('takes reg:<n>;status:0; and req:<n>;status:200; as ok', async () => {
    const { srv, sim } = await setup({ keepaliveAnswer: 'req' }, { lines: 1 });
    await until(() => sim.line(1).registered);
    expect(sim.line(1).lastAnswer).toMatch(/^req:\d+;status:200;$/);
    srv.keepaliveAnswer = 'reg';
    await until(() => sim.line(1).lastAnswer?.startsWith('reg:') === true);
    expect(sim.line(1).registered).toBe(true);
  });

  it('a refusal or no answer leaves the line unregistered; a silent server unregisters it', async () => {
    const { srv, sim } = await setup(
      { keepaliveAnswer: (count) => `reg:${count};status:400;` },
      { lines: 2 },
    );
    await until(() => sim.line(1).lastAnswer !== null && sim.line(1).keepalives >= 2);
    expect(sim.line(1).registered).toBe(false);

    srv.keepaliveAnswer = 'none';
    await srv.waitFor((d) => d.text.startsWith('req:'), srv.packets.length + 4);
    expect(sim.lines().map((l) => l.registered)).toEqual([false, false]);

    srv.keepaliveAnswer = 'reg';
    await until(() => sim.line(1).registered && sim.line(2).registered);
    srv.keepaliveAnswer = 'none';
    await until(() => !sim.line(1).registered && !sim.line(2).registered);
  });

  it('an empty slot and a logged-out SIM say gsm_status:LOGOUT', async () => {
    const { srv, sim } = await setup({}, { lines: 2, sims: [{ inserted: false }] });
    sim.logout(2);
    const [empty] = await srv.waitFor((d) => d.text.includes('id:goip1;'));
    expect(empty!.text).toMatch(/num:;signal:99;gsm_status:LOGOUT;.*imsi:;iccid:;pro:;$/);
    const [out] = await srv.waitFor((d) => d.text.includes('id:goip2;') && d.text.includes('LOGOUT'));
    expect(out!.text).toContain(`num:${sim.line(2).sim.number};`);
  });

  it('silence stops keepalives and answers; a reboot counts from 1 on new source ports', async () => {
    const { srv, sim } = await setup({}, { lines: 2 });
    await until(() => sim.line(1).registered);
    sim.silence('all');
    const mark = srv.packets.length;
    await new Promise((r) => setTimeout(r, 200));
    expect(srv.packets.length).toBe(mark);
    expect(sim.line(1).registered).toBe(false);
    sim.silence('all', false);
    await until(() => sim.line(1).registered);

    const before = sim.lines().map((l) => l.sourcePort);
    await sim.reboot();
    const after = sim.lines().map((l) => l.sourcePort);
    expect(after.some((p, i) => p !== before[i])).toBe(true);
    const [first] = await srv.waitFor((d) => d.text.startsWith('req:1;id:goip1;'), 2);
    expect(first).toBeDefined();
    expect(srv.lineAddress('goip1')?.port).toBe(sim.line(1).sourcePort);
  });
});
