import { GoipSim, type GoipSimOptions } from '@simdock/goip-sim';
import { afterEach, describe, expect, it } from 'vitest';
import type { DatagramLink, DriverTarget, HeldResult } from './driver.ts';
import { GatewayError } from './driver.ts';
import { GoipDriver } from './goip.ts';
import type { GoipWebOptions } from './goip.web.ts';

// The GoIP driver in web mode against a simulated box's real web pages (tools/goip-sim with its
// lines never registering over UDP): status.xml, send.html and send_status.xml, the inbox page.

const boxes: GoipSim[] = [];
afterEach(async () => {
  for (const b of boxes.splice(0)) await b.stop();
});

async function webBox(opts: Partial<GoipSimOptions> = {}) {
  const sim = await GoipSim.start({
    udp: false,
    lines: 2,
    sendMs: 20,
    seed: 11,
    httpUser: 'web-admin',
    httpPassword: 'web-secret',
    sims: [{ carrier: 'Viettel Mobile' }, { inserted: false }],
    ...opts,
  });
  boxes.push(sim);
  return sim;
}

function driver(sim: GoipSim, over: Partial<DriverTarget> = {}, web: GoipWebOptions = {}) {
  const target: DriverTarget = {
    url: sim.url,
    username: 'roof',
    password: 'line-pw',
    mode: 'web',
    externalId: 'roof',
    signingKey: null,
    webUser: 'web-admin',
    webPassword: 'web-secret',
    ...over,
  };
  return new GoipDriver(target, undefined, { pollMs: 20, ...web });
}

/** What sendHeld needs in web mode: only the signal that the platform stopped. */
function link(closed = new AbortController().signal): DatagramLink {
  const none = () => {
    throw new Error('a web-mode send uses no datagram');
  };
  return { port: { send: none, localPort: 0 }, peerOf: none, newRequestId: none, answers: none, closed };
}

async function sendAll(d: GoipDriver, sends: { tid: number; to: string; sms: string; from: string }[]) {
  const results: HeldResult[] = [];
  await d.sendHeld(sends, link(), async (r) => {
    results.push(...r);
  });
  return results;
}

describe('GoIP through its web pages', () => {
  it('getStatus reads status.xml: one SIM per line, the box ID as its id', async () => {
    const sim = await webBox();
    const status = await driver(sim).getStatus();
    expect(status).toMatchObject({ externalId: 'roof', complete: true });
    expect(status.sims.map((s) => [s.slot, s.state])).toEqual([
      ['1', 'ready'],
      ['2', 'empty'],
    ]);
    expect(status.sims[0]).toMatchObject({
      operator: 'Viettel Mobile',
      imei: sim.line(1).sim.imei,
      signal: sim.line(1).sim.signal,
    });
    // connect() checks the login the same way.
    await expect(driver(sim).connect()).resolves.toEqual({ warnings: [] });
  });

  it('a wrong web password is an auth error that names no password', async () => {
    const sim = await webBox();
    const err = await driver(sim, { webPassword: 'wrong-one' })
      .getStatus()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GatewayError);
    expect((err as GatewayError).kind).toBe('auth');
    expect((err as GatewayError).message).toMatch(/Web login/);
    expect((err as GatewayError).message).not.toMatch(/wrong-one|web-secret/);
    await expect(driver(sim, { webPassword: 'wrong-one' }).connect()).rejects.toThrow(/refused/);
  });

  it('in udp mode without a web login a Scan is refused as before; with one it reads status.xml', async () => {
    const sim = await webBox();
    const err = await driver(sim, { mode: 'udp', webUser: null, webPassword: null })
      .getStatus()
      .catch((e: unknown) => e);
    expect((err as GatewayError).kind).toBe('protocol');
    const status = await driver(sim, { mode: null }).getStatus();
    expect(status.sims).toHaveLength(2);
    // A udp box's lines push their SMS: it has no inbox to read.
    expect(driver(sim, { mode: 'udp' }).pullSms).toBeUndefined();
  });

  it('sendHeld sends each SMS whole through send.html and waits for DONE', async () => {
    const sim = await webBox();
    const text = 'Mã: 1234; Hello, World: ✓ CAPS & 100% "ok"';
    const results = await sendAll(driver(sim), [
      { tid: 1, to: '15550001001', sms: text, from: '1' },
      { tid: 2, to: '+15550001002', sms: text, from: '1' },
    ]);
    expect(results).toEqual([
      { tid: 1, outcome: 'accepted', confirmed: true, deviceRef: null, deviceText: '' },
      { tid: 2, outcome: 'accepted', confirmed: true, deviceRef: null, deviceText: '' },
    ]);
    expect(sim.sent().map((m) => [m.line, m.number, m.text, m.via])).toEqual([
      [1, '15550001001', text, 'http'],
      [1, '+15550001002', text, 'http'],
    ]);
  });

  it("an ERROR from the box is this SIM's failure, in the box's words", async () => {
    const sim = await webBox({ failingNumbers: { '15550002002': 21 } });
    const results = await sendAll(driver(sim), [
      { tid: 7, to: '15550002002', sms: 'x', from: '1' },
      { tid: 8, to: '15550002003', sms: 'x', from: '2' },
    ]);
    expect(results[0]).toMatchObject({ tid: 7, outcome: 'sim_cannot_send', deviceText: 'errorstatus:21' });
    // Line 2 has no SIM on the network.
    expect(results[1]).toMatchObject({ tid: 8, outcome: 'sim_cannot_send', deviceText: 'GSM_LOGOUT' });
    expect(sim.sent()).toEqual([]);
  });

  it('a send the box never reports done is accepted unconfirmed after the give-up time: never sent twice', async () => {
    const sim = await webBox({ sendMs: 5000 });
    const results = await sendAll(driver(sim, {}, { giveUpMs: 300 }), [
      { tid: 3, to: '15550003003', sms: 'slow', from: '1' },
    ]);
    expect(results).toEqual([
      {
        tid: 3,
        outcome: 'accepted',
        confirmed: false,
        deviceRef: null,
        deviceText: expect.stringMatching(/did not report the send done/),
      },
    ]);
  });

  it('a box that cannot be reached is busy (tried again later); a stop ends the run', async () => {
    const sim = await webBox();
    const url = sim.url;
    await sim.stop();
    boxes.length = 0;
    const results = await sendAll(driver(sim, { url }), [{ tid: 4, to: '15550004004', sms: 'x', from: '1' }]);
    expect(results).toMatchObject([{ tid: 4, outcome: 'device_busy', confirmed: true }]);

    const live = await webBox();
    const stop = new AbortController();
    stop.abort();
    const none: HeldResult[] = [];
    await driver(live).sendHeld([{ tid: 5, to: '1', sms: 'x', from: '1' }], link(stop.signal), async (r) => {
      none.push(...r);
    });
    expect(none).toEqual([]);
    expect(live.sent()).toEqual([]);
  });

  it('pullSms reads the inbox; reading it again from the watermark gives the same keys, nothing older', async () => {
    const sim = await webBox();
    const d = driver(sim);
    const old = new Date(Date.now() - 3_600_000);
    sim.receiveSms(1, { from: '+15557770000', text: 'old one', at: old });
    sim.receiveSms(1, { from: 'Telegram', text: 'Telegram code: 12345; do not share, ever' });
    const first = await d.pullSms!(1);
    expect(first.ssrc).toBeNull();
    expect(first.items.map((i) => [i.port, i.sender, i.text])).toEqual([
      ['1', '+15557770000', 'old one'],
      ['1', 'Telegram', 'Telegram code: 12345; do not share, ever'],
    ]);
    expect(first.nextId).toBe(first.items[1]!.ts);
    const again = await d.pullSms!(first.nextId);
    expect(again.items.map((i) => i.dedupeKey)).toEqual([first.items[1]!.dedupeKey]);
    expect(again.nextId).toBe(first.nextId);
  });

  it('USSD is refused with a sentence a person can act on', async () => {
    const sim = await webBox();
    await expect(driver(sim).ussd('1', '*101#')).rejects.toThrow(
      /USSD needs the box's lines to connect over UDP/,
    );
  });
});
