import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_FAULTS } from './options.ts';
import { Pusher } from './pusher.ts';

const noFaults = () => ({ ...DEFAULT_FAULTS });

/** A receiver that records bodies and the sockets they came on; `delayMs` holds each answer. */
async function receiver(delayMs = 0) {
  const bodies: unknown[] = [];
  const sockets = new Set<unknown>();
  const server = http.createServer((req, res) => {
    sockets.add(req.socket);
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      bodies.push(JSON.parse(raw));
      setTimeout(() => res.writeHead(200).end('{"code":0}'), delayMs);
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/push`;
  return { url, bodies, sockets, server };
}

const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

describe('pusher', () => {
  it('delivers pushes to one URL in order, over one kept-alive connection', async () => {
    const r = await receiver();
    servers.push(r.server);
    const pusher = new Pusher(noFaults, 2000);
    for (let i = 0; i < 20; i++) void pusher.push(r.url, { type: 'recv-sms', n: i });
    await pusher.idle();
    expect(r.bodies.map((b) => (b as { n: number }).n)).toEqual([...Array(20).keys()]);
    expect(r.sockets.size).toBe(1);
    expect(pusher.log.map((l) => l.result)).toEqual(Array(20).fill(200));
    pusher.stop();
  });

  it('records a receiver that does not answer in time, and one that refuses, and goes on', async () => {
    const slow = await receiver(1000);
    servers.push(slow.server);
    const pusher = new Pusher(noFaults, 100);
    await pusher.push(slow.url, { type: 'recv-sms' });
    expect(pusher.log.at(-1)?.result).toBe('push timed out');
    // A closed port: the error is recorded, not thrown.
    const closed = await receiver();
    closed.server.close();
    await once(closed.server, 'close');
    await pusher.push(closed.url, { type: 'port-status' });
    expect(pusher.log.at(-1)?.result).toMatch(/ECONNREFUSED/);
    const ok = await receiver();
    servers.push(ok.server);
    await pusher.push(ok.url, { type: 'dev-status' });
    expect(pusher.log.at(-1)).toMatchObject({ type: 'dev-status', result: 200 });
    pusher.stop();
  });

  it('sends each push twice with duplicatePushes, none with dropPushes', async () => {
    const r = await receiver();
    servers.push(r.server);
    const faults = { ...noFaults(), duplicatePushes: true };
    const pusher = new Pusher(() => faults, 2000);
    await pusher.push(r.url, { type: 'recv-sms', n: 1 });
    expect(r.bodies).toHaveLength(2);
    faults.duplicatePushes = false;
    faults.dropPushes = true;
    await pusher.push(r.url, { type: 'recv-sms', n: 2 });
    expect(r.bodies).toHaveLength(2);
    pusher.stop();
  });
});
