import { afterEach, describe, expect, it } from 'vitest';
import type { GoipSimOptions } from './options.ts';
import { startBoxAndServer, type TestServerOptions, until } from './testkit.ts';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function setup(opts: Partial<GoipSimOptions> = {}, server: TestServerOptions = {}) {
  const box = {
    lines: 2,
    keepaliveMs: 60_000,
    sendMs: 60,
    waitRepeatMs: 25,
    deliverMs: null,
    ussdMs: 5,
    seed: 11,
  };
  const { srv, sim, stop } = await startBoxAndServer(server, { ...box, ...opts }, 2);
  cleanup.push(stop);
  return { srv, sim, peer: (id: string) => srv.lineAddress(id)! };
}

describe('the bulk-send session', () => {
  it('MSG, PASSWORD, SEND: WAIT while sending, then OK; each SEND received once', async () => {
    const { srv, sim } = await setup();
    const text = 'Your code: 1234; Ünïcødé OK';
    const r = await srv.sendSms('goip2', {
      sendid: '77',
      text,
      password: '1234',
      numbers: ['15550000001', '15550000002'],
    });
    expect(r.error).toBeNull();
    expect(r.answers.get('1')).toMatch(/^OK 77 1 \d+$/);
    expect(r.answers.get('2')).toMatch(/^OK 77 2 \d+$/);
    // The first WAIT at once, more every 25 ms of the 60 ms the SMS takes.
    expect(r.waits.get('1')).toBeGreaterThanOrEqual(2);
    expect(sim.sendCount('77', '1')).toBe(1);
    expect(sim.sendCount('77', '2', 2)).toBe(1);
    expect(sim.sendCount('77', '2', 1)).toBe(0);
    const sent = sim.sent();
    expect(sent.map((s) => [s.line, s.id, s.number, s.text, s.via])).toEqual([
      [2, 'goip2', '15550000001', text, 'udp'],
      [2, 'goip2', '15550000002', text, 'udp'],
    ]);
    expect(sent[1]!.smsNo).toBe(sent[0]!.smsNo + 1);
    expect(r.answers.get('2')).toBe(`OK 77 2 ${sent[1]!.smsNo}`);
    // Every answer came from the line's own socket.
    const answers = srv.packets.filter((d) => / 77\b/.test(d.text));
    expect(new Set(answers.map((d) => d.from.port))).toEqual(new Set([sim.line(2).sourcePort]));
    expect(sim.sessions()).toEqual([]);
  });

  it('a repeated SEND is counted and answered, never sent twice', async () => {
    const { srv, sim, peer } = await setup({ waitRepeatMs: 0 });
    const p = peer('goip1');
    srv.send('MSG 5 2 hi', p);
    await srv.waitFor((d) => d.text === 'PASSWORD 5');
    srv.send('PASSWORD 5 1234', p);
    await srv.waitFor((d) => d.text === 'SEND 5');
    srv.send('SEND 5 1 15550000009', p);
    srv.send('SEND 5 1 15550000009', p);
    const [ok] = await srv.waitFor((d) => d.text.startsWith('OK 5 1 '));
    srv.send('SEND 5 1 15550000009', p);
    await srv.waitFor((d) => d.text === ok!.text, 2);
    expect(srv.packets.filter((d) => d.text === 'WAIT 5 1')).toHaveLength(2);
    expect(sim.sendCount('5', '1')).toBe(3);
    expect(sim.sent()).toHaveLength(1);
    srv.send('DONE 5', p);
    await srv.waitFor((d) => d.text === 'DONE 5');
  });

  it('a wrong password gets ERROR <sendid> PASSWORD and ends the session', async () => {
    const { srv, sim } = await setup();
    const r = await srv.sendSms('goip1', { sendid: '6', text: 'x', password: 'nope', numbers: ['1'] });
    expect(r.error).toBe('ERROR 6 PASSWORD');
    expect(sim.sessions()).toEqual([]);
  });

  it('a logged-out line answers GSM_LOGOUT; a refused number errorstatus:<n>', async () => {
    const { srv, sim } = await setup({ failingNumbers: { '15550000666': 3 } });
    sim.logout(1);
    const out = await srv.sendSms('goip1', {
      sendid: '1',
      text: 'x',
      password: '1234',
      numbers: ['15550000001'],
    });
    expect(out.answers.get('1')).toBe('ERROR 1 1 GSM_LOGOUT');
    sim.logout(1, false);
    const mixed = await srv.sendSms('goip1', {
      sendid: '2',
      text: 'x',
      password: '1234',
      numbers: ['15550000666', '15550000002'],
    });
    expect(mixed.answers.get('1')).toBe('ERROR 2 1 errorstatus:3');
    expect(mixed.answers.get('2')).toMatch(/^OK 2 2 \d+$/);
    sim.setFailingNumber('15550000002', 7);
    const again = await srv.sendSms('goip1', {
      sendid: '3',
      text: 'x',
      password: '1234',
      numbers: ['15550000002'],
    });
    expect(again.answers.get('1')).toBe('ERROR 3 1 errorstatus:7');
    expect(sim.sent().map((s) => s.number)).toEqual(['15550000002']);
  });

  it('holds at most 5 sessions per box; an idle session dies', async () => {
    const { srv, sim, peer } = await setup({ sessionIdleMs: 150 });
    for (const [i, id] of ['goip1', 'goip2', 'goip1', 'goip2', 'goip1'].entries()) {
      srv.send(`MSG s${i} 1 x`, peer(id));
    }
    await srv.waitFor((d) => d.text.startsWith('PASSWORD s'), 5);
    srv.send('MSG s5 1 x', peer('goip2'));
    await srv.waitFor((d) => d.text === 'ERROR s5 BUSY');
    expect(sim.sessions()).toHaveLength(5);
    // The server's own re-send of a MSG is answered again, not refused.
    srv.send('MSG s0 1 x', peer('goip1'));
    await srv.waitFor((d) => d.text === 'PASSWORD s0', 2);

    await until(() => sim.sessions().length === 0, 1000);
    srv.send('MSG s6 1 x', peer('goip2'));
    await srv.waitFor((d) => d.text === 'PASSWORD s6');
  });

  it('sends on the line whose association the session came on', async () => {
    const { srv, sim } = await setup();
    await srv.sendSms('goip1', { sendid: 'a', text: 'one', password: '1234', numbers: ['15550000001'] });
    await srv.sendSms('goip2', { sendid: 'a', text: 'two', password: '1234', numbers: ['15550000001'] });
    expect(sim.sent().map((s) => [s.line, s.text])).toEqual([
      [1, 'one'],
      [2, 'two'],
    ]);
    expect(sim.sendCounts()).toEqual([
      { line: 1, sendid: 'a', telid: '1', count: 1 },
      { line: 2, sendid: 'a', telid: '1', count: 1 },
    ]);
  });
});

describe('USSD', () => {
  it('answers the configured codes, USSDERROR otherwise, and USSDEXIT', async () => {
    const { srv, sim, peer } = await setup({ sims: [{ ussd: { '*101#': 'Data left: 1 GB' } }] });
    expect(await srv.ussd('goip1', '40', '1234', '*100#')).toBe('USSD 40 Your balance is 12.50 USD');
    expect(await srv.ussd('goip1', '41', '1234', '*101#')).toBe('USSD 41 Data left: 1 GB');
    expect(await srv.ussd('goip2', '42', '1234', '*#100#')).toBe(
      `USSD 42 Your number is +${sim.line(2).sim.number}`,
    );
    expect(await srv.ussd('goip1', '43', '1234', '*999#')).toMatch(/^USSDERROR 43 /);
    expect(await srv.ussd('goip1', '44', 'bad', '*100#')).toBe('USSDERROR 44 PASSWORD');
    srv.send('USSDEXIT 45 1234', peer('goip1'));
    await srv.waitFor((d) => d.text === 'USSDEXIT 45');
  });
});
