import { afterEach, describe, expect, it } from 'vitest';
import { startFromArgs } from './cli.ts';
import { GoipSim } from './device.ts';
import { GoipTestServer, until } from './testkit.ts';
import { inboxTime } from './web.ts';

let cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.reverse()) await c();
  cleanup = [];
});

async function setup() {
  const srv = await GoipTestServer.start();
  const sim = await GoipSim.start({
    server: srv.address,
    lines: 2,
    keepaliveMs: 60_000,
    sendMs: 20,
    deliverMs: null,
    reportRetryMs: 50,
    seed: 5,
    sims: [{ carrier: 'Viettel Mobile' }, { inserted: false }],
  });
  cleanup.push(
    () => srv.close(),
    () => sim.stop(),
  );
  return { srv, sim };
}

const AUTH = { authorization: `Basic ${Buffer.from('admin:admin').toString('base64')}` };
const page = (sim: GoipSim, path: string, headers: Record<string, string> = AUTH) =>
  fetch(`${sim.url}/default/en_US/${path}`, { headers });

/** `<tag>value</tag>` pairs of a flat XML page. */
function xmlFields(xml: string): Record<string, string> {
  return Object.fromEntries([...xml.matchAll(/<(\w+)>([^<]*)<\/\1>/g)].map((m) => [m[1]!, m[2]!]));
}

describe('the web pages', () => {
  it('asks for Basic auth', async () => {
    const { sim } = await setup();
    const res = await page(sim, 'status.xml', {});
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect((await page(sim, 'nothing.html')).status).toBe(404);
  });

  it('status.xml lists each line', async () => {
    const { sim } = await setup();
    const res = await page(sim, 'status.xml');
    expect(res.headers.get('content-type')).toMatch(/xml/);
    const f = xmlFields(await res.text());
    const one = sim.line(1).sim;
    expect(f).toMatchObject({
      l1_gsm_sim: 'Y',
      l1_gsm_status: 'LOGIN',
      l1_gsm_signal: String(one.signal),
      l1_gsm_cur_oper: 'Viettel Mobile',
      l1_gsm_imei: one.imei,
      l1_line_state: 'IDLE',
      l2_gsm_sim: 'N',
      l2_gsm_status: 'LOGOUT',
      l2_gsm_signal: '99',
    });
  });

  it('send.html sends on the line and send_status.xml follows it', async () => {
    const { sim } = await setup();
    const q = new URLSearchParams({ u: 'admin', p: 'admin', l: '1', n: '15551112222', m: 'Hé; 1:2' });
    const res = await page(sim, `send.html?${q}`, {});
    const text = await res.text();
    expect(text).toMatch(/^Sending,L1 Send SMS to:15551112222; ID:[0-9a-f]+$/);
    const id = /ID:([0-9a-f]+)$/.exec(text)![1]!;
    await until(() => sim.sent().length === 1);
    expect(sim.sent()[0]).toMatchObject({ line: 1, number: '15551112222', text: 'Hé; 1:2', via: 'http' });
    const f = xmlFields(await (await page(sim, 'send_status.xml')).text());
    expect(f).toMatchObject({ id1: id, status1: 'DONE', error1: '', id2: '', status2: '' });
  });

  it('the inbox shows each line its messages as "MM-DD HH:MM:SS,<number>,<text>"', async () => {
    const { sim } = await setup();
    const before = new Date();
    sim.receiveSms(1, { from: '+15553334444', text: 'Hello, "World" </script> ✓' });
    sim.receiveSms(1, { from: '100', text: 'second' });
    // Line 2 has no SIM: nothing reaches it.
    expect(() => sim.receiveSms(2, { from: '100', text: 'lost' })).toThrow(/no SIM on the network/);
    const html = await (await page(sim, 'tools.html?type=sms_inbox')).text();
    const blocks = [...html.matchAll(/<script[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);
    expect(blocks).toHaveLength(2);
    const strings = (block: string) => JSON.parse(/sms= (\[.*\]);/.exec(block)![1]!) as string[];
    const one = strings(blocks[0]!);
    expect(one).toHaveLength(2);
    expect(one[1]).toMatch(/^\d\d-\d\d \d\d:\d\d:\d\d,\+15553334444,Hello, "World" <\/script> ✓$/);
    expect(one[1]!.slice(0, 5)).toBe(inboxTime(before).slice(0, 5));
    expect(one[0]).toMatch(/,100,second$/);
    expect(strings(blocks[1]!)).toEqual([]);
  });
});

describe('the CLI and its control API', () => {
  it('refuses an unknown option and a missing server', async () => {
    await expect(startFromArgs(['--server', '127.0.0.1:1', '--bogus'], () => {})).rejects.toThrow(/bogus/);
    await expect(startFromArgs(['--lines', '2'], () => {})).rejects.toThrow(/--server/);
    await expect(startFromArgs(['--server', '127.0.0.1:1', '--lines', 'x'], () => {})).rejects.toThrow(
      /--lines/,
    );
  });

  it('starts a box and drives it over /sim/*', async () => {
    const srv = await GoipTestServer.start();
    cleanup.push(() => srv.close());
    const out: string[] = [];
    const sim = await startFromArgs(
      [
        '--server',
        `127.0.0.1:${srv.port}`,
        '--lines',
        '2',
        '--id-prefix',
        'cli',
        '--seed',
        '1',
        '--send-ms',
        '5',
      ],
      (l) => out.push(l),
    );
    cleanup.push(() => sim!.stop());
    const printed = JSON.parse(out[0]!) as { url: string; lines: { id: string }[] };
    expect(printed.lines.map((l) => l.id)).toEqual(['cli1', 'cli2']);
    const post = (path: string, body: unknown) =>
      fetch(`${printed.url}/sim/${path}`, { method: 'POST', body: JSON.stringify(body) });

    expect((await post('receive-sms', { line: 2, from: '123', text: 'via control' })).status).toBe(200);
    await srv.waitFor((d) => d.text.endsWith('srcnum:123;msg:via control') && d.text.includes('id:cli2;'));
    expect((await post('receive-sms', { line: 2 })).status).toBe(400);
    expect((await post('logout', { line: 1 })).status).toBe(200);
    const state = (await (await fetch(`${printed.url}/sim/state`)).json()) as {
      lines: { sim: { loggedIn: boolean } }[];
    };
    expect(state.lines.map((l) => l.sim.loggedIn)).toEqual([false, true]);
    expect((await post('silence', { on: true })).status).toBe(200);
    expect(sim!.lines().every((l) => l.silenced)).toBe(true);
    expect((await fetch(`${printed.url}/sim/nothing`)).status).toBe(404);
  });
});

describe('a box whose lines do not register over UDP (udp: false)', () => {
  it('sends nothing over UDP; SMS land in the inbox page and send.html sends', async () => {
    const sim = await GoipSim.start({ udp: false, lines: 2, sendMs: 10, seed: 7 });
    cleanup.push(() => sim.stop());
    const report = sim.receiveSms(2, { from: '+15550001111', text: 'Code: 4321; ok, thanks' });
    expect(await report.done).toBe(false);
    expect(sim.lines().every((l) => l.keepalives === 0 && l.sourcePort === 0)).toBe(true);
    expect(sim.packets()).toEqual([]);

    const html = await (await page(sim, 'tools.html?type=sms_inbox')).text();
    expect(html).toContain('+15550001111,Code: 4321; ok, thanks');
    expect(html).toContain('sms_row_insert(l2_sms_store');

    const q = new URLSearchParams({ u: 'admin', p: 'admin', l: '2', n: '15552223333', m: 'Hi' });
    expect(await (await page(sim, `send.html?${q}`, {})).text()).toMatch(/^Sending,L2 /);
    await until(() => sim.sent().length === 1);
    expect(sim.sent()[0]).toMatchObject({ line: 2, number: '15552223333', via: 'http' });
    const f = xmlFields(await (await page(sim, 'status.xml')).text());
    expect(f.l1_gsm_status).toBe('LOGIN');
  });

  it('the CLI starts one with --no-udp and no --server', async () => {
    const out: string[] = [];
    const sim = await startFromArgs(['--no-udp', '--lines', '1', '--seed', '2'], (l) => out.push(l));
    cleanup.push(() => sim!.stop());
    expect(sim!.lines()[0]!.sourcePort).toBe(0);
    expect(JSON.parse(out[0]!).url).toBe(sim!.url);
  });
});
