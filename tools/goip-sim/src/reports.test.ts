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
  const { srv, sim, stop } = await startBoxAndServer(
    server,
    { lines: 2, keepaliveMs: 60_000, reportRetryMs: 40, sendMs: 5, deliverMs: 10, seed: 3, ...opts },
    2,
  );
  cleanup.push(stop);
  return { srv, sim };
}

const TEXT = 'Code: 4711; Ünïcødé ✓ 中文 — CAPS kept; a:b;c';

describe('reports', () => {
  it('RECEIVE keeps the text whole and is re-sent until acked', async () => {
    const { srv, sim } = await setup({ ackReports: false });
    const r = sim.receiveSms(2, { from: '+15551230000', text: TEXT });
    const sends = await srv.waitFor((d) => d.text.startsWith('RECEIVE:'), 3);
    expect(sends.map((d) => d.text)).toEqual([sends[0]!.text, sends[0]!.text, sends[0]!.text]);
    const text = sends[0]!.text;
    expect(text).toBe(`RECEIVE:${r.state.recvid};id:goip2;password:1234;srcnum:+15551230000;msg:${TEXT}`);
    expect(text.slice(text.indexOf(';msg:') + 5)).toBe(TEXT);
    expect(sends[0]!.from.port).toBe(sim.line(2).sourcePort);

    srv.send(`RECEIVE ${r.state.recvid} OK`, sends[0]!.from);
    expect(await r.done).toBe(true);
    const n = r.state.sends;
    expect(n).toBeGreaterThanOrEqual(3);
    await new Promise((res) => setTimeout(res, 100));
    expect(srv.packets.filter((d) => d.text.startsWith('RECEIVE:')).length).toBe(n);
    expect(sim.reports()[0]).toMatchObject({ kind: 'RECEIVE', status: 'acked', sends: n, line: 2 });
  });

  it('gives up after the re-sends (1 + 3 by default) without an ack', async () => {
    const { srv, sim } = await setup({ ackReports: false });
    const r = sim.receiveSms(1, { from: '100', text: 'x' });
    expect(await r.done).toBe(false);
    expect(r.state).toMatchObject({ status: 'unanswered', sends: 4 });
    expect(srv.packets.filter((d) => d.text.startsWith('RECEIVE:'))).toHaveLength(4);
  });

  it('an acked report goes out once; ignoreAcks makes the box re-send what was acked', async () => {
    const { srv, sim } = await setup();
    const once = sim.receiveSms(1, { from: '100', text: 'one' });
    expect(await once.done).toBe(true);
    expect(once.state.sends).toBe(1);

    sim.ignoreAcks(2);
    const thrice = sim.receiveSms(1, { from: '100', text: 'two' });
    expect(await thrice.done).toBe(true);
    expect(thrice.state.sends).toBe(3);
    expect(srv.packets.filter((d) => d.text.endsWith(';msg:two'))).toHaveLength(3);
  });

  it('RECEIVE <recvid> ERROR ends the re-sending as refused', async () => {
    const { srv, sim } = await setup({ ackReports: false });
    const r = sim.receiveSms(1, { from: '100', text: 'no' });
    const [d] = await srv.waitFor((p) => p.text.startsWith('RECEIVE:'));
    srv.send(`RECEIVE ${r.state.recvid} ERROR bad`, d!.from);
    expect(await r.done).toBe(false);
    expect(r.state.status).toBe('refused');
  });

  it('without NTP the report ids start at 1 and repeat after a reboot', async () => {
    const { srv, sim } = await setup({}, { noNtp: true });
    const a = sim.receiveSms(1, { from: '100', text: 'a' });
    expect(await a.done).toBe(true);
    await sim.reboot();
    const b = sim.receiveSms(1, { from: '100', text: 'b' });
    expect(await b.done).toBe(true);
    expect([a.state.recvid, b.state.recvid]).toEqual([1, 1]);
    const forced = sim.receiveSms(1, { from: '100', text: 'c', recvid: -5 });
    await srv.waitFor((d) => d.text.startsWith('RECEIVE:-5;'));
    expect(await forced.done).toBe(true);
  });

  it('RECORD reports an incoming call', async () => {
    const { srv, sim } = await setup();
    const r = sim.call(2, '+15550001111');
    expect(await r.done).toBe(true);
    const [d] = await srv.waitFor((p) => p.text.startsWith('RECORD:'));
    expect(d!.text).toBe(`RECORD:${r.state.recvid};id:goip2;password:1234;dir:1;num:+15550001111`);
  });

  it('DELIVER follows an OK with its sms_no, re-sent until acked', async () => {
    const { srv, sim } = await setup({ ackReports: false });
    const pw = sim.line(1).password;
    const session = srv.sendSms('goip1', { sendid: '9', text: 'hi', password: pw, numbers: ['15557654321'] });
    const result = await session;
    const ok = result.answers.get('1')!;
    expect(ok).toMatch(/^OK 9 1 \d+$/);
    const smsNo = ok.split(' ')[3];
    const delivers = await srv.waitFor((d) => d.text.startsWith('DELIVER:'), 2);
    const f = fieldsOf(delivers[0]!.text);
    expect(delivers[0]!.text).toMatch(
      /^DELIVER:-?\d+;id:goip1;password:1234;sms_no:\d+;state:0;num:15557654321$/,
    );
    expect(f.get('sms_no')).toBe(smsNo);
    expect(delivers[1]!.text).toBe(delivers[0]!.text);
    srv.send(`DELIVER ${f.get('DELIVER')} OK`, delivers[0]!.from);
    await until(() => sim.reports().some((r) => r.kind === 'DELIVER' && r.status === 'acked'));
    expect(sim.sent()).toMatchObject([{ line: 1, number: '15557654321', text: 'hi', smsNo: Number(smsNo) }]);
  });
});
