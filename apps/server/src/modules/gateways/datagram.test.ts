import { createSocket, type Socket } from 'node:dgram';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredSms } from '../../context.ts';
import { seal } from '../../crypto.ts';
import { waitFor } from '../../test/fixtures.ts';
import { startTestServer, type TestServer } from '../../test/harness.ts';
import { datagramListener } from './datagram.ts';
import { driverFor } from './device.ts';
import type {
  DatagramAddress,
  DeviceLogin,
  DriverTarget,
  GatewayDriver,
  RawPush,
  ReadPush,
} from './driver/driver.ts';
import { addDeviceKind } from './driver/registry.ts';
import { insertGateway } from './gateways.queries.ts';
import { pushTargets } from './push-targets.ts';

// A device that is not HTTP-shaped, driven through the same push service as the real kinds: a
// stub kind whose datagrams name their device inside ("<login> <password> <what> …"), served by
// the generic datagram listener on a real UDP socket, answered at the packet's source address.
//   <login> <pw> SIM <slot> <number>       → the SIM's status, answered "OK SIM <slot>"
//   <login> <pw> SMS <id> <sender> <text…> → an incoming SMS (applied once per id), answered "OK SMS <id>"
// The stub driver sends a task as one datagram to the address its device last wrote from, through
// the socket the listener holds (DriverTarget.datagrams).

const KIND = 'stubgram';
const lastSeen = new Map<string, DatagramAddress>();

function loginOf(body: Buffer): DeviceLogin | undefined {
  const [login, password] = body.toString('utf8').split(' ');
  return login && password ? { login, password } : undefined;
}

class StubDriver implements Partial<GatewayDriver> {
  constructor(private readonly target: DriverTarget) {}
  readonly slotHint = 'Slot is a number.';
  canonicalSlot = (raw: string) => (/^\d+$/.test(raw) ? raw : undefined);
  readPush(raw: RawPush): ReadPush {
    if (raw.transport.kind !== 'datagram') throw new Error('datagrams only');
    lastSeen.set(this.target.username, raw.transport.from);
    const [, , what, a, b, ...rest] = raw.body.toString('utf8').split(' ');
    if (what === 'SIM')
      return {
        push: {
          kind: 'sim',
          sim: {
            slot: a!,
            state: 'ready',
            deviceState: null,
            iccid: null,
            imsi: null,
            imei: null,
            number: b!,
            operator: null,
            signal: null,
            balance: null,
            active: true,
          },
        },
        reply: Buffer.from(`OK SIM ${a}`),
      };
    return {
      push: {
        kind: 'sms',
        items: [{ isReport: false, port: '1', ts: null, sender: b!, recipient: null, text: rest.join(' ') }],
      },
      eventId: `sms-${a}`,
      reply: Buffer.from(`OK SMS ${a}`),
    };
  }
  async sendTasks(tasks: { tid: number; to: string; sms: string }[]) {
    const to = lastSeen.get(this.target.username);
    if (!to || !this.target.datagrams) throw new Error('no datagram port');
    for (const t of tasks)
      await this.target.datagrams.send(to, Buffer.from(`SEND ${t.tid} ${t.to} ${t.sms}`));
    return tasks.map((t) => ({ tid: t.tid, outcome: 'accepted' as const, deviceText: 'sent' }));
  }
}

let s: TestServer;
let stopListener: () => Promise<void>;
let server: DatagramAddress;
let device: Socket;
const answers: string[] = [];
const handed: StoredSms[] = [];
let gatewayId: string;

beforeAll(async () => {
  s = await startTestServer();
  s.ctx.registry.smsConsumers.push(async (_q, sms) => {
    handed.push(sms);
    return false;
  });
  addDeviceKind(s.ctx, KIND, {
    create: (target) => new StubDriver(target) as unknown as GatewayDriver,
    can: { sendMms: false, ussd: false },
    pushes: 'datagram',
    sends: 'direct',
    loginOf,
    gatewayOfLogin: (login, gateways) => gateways.find((g) => g.userName === login)?.id,
  });
  const gw = await insertGateway(s.db, {
    name: 'Datagram box',
    url: 'udp://box',
    mac: null,
    userName: 'box7',
    isEnable: true,
    driver: KIND,
    externalId: null,
    mode: null,
    passwordEnc: seal(s.ctx.config.APP_SECRET, 'right-pw'),
    signingKeyEnc: null,
    pushSecret: 'unused-for-datagrams',
    createdAt: new Date(),
  });
  gatewayId = gw!.id;
  stopListener = await datagramListener(KIND, {
    host: '127.0.0.1',
    port: 0,
    onListening: (a) => {
      server = a;
    },
  }).start(s.ctx);
  device = createSocket('udp4');
  device.on('message', (m) => answers.push(m.toString('utf8')));
  await new Promise<void>((r) => device.bind(0, '127.0.0.1', r));
});
afterAll(async () => {
  device.close();
  await stopListener();
  await s.close();
});

const send = (text: string) =>
  new Promise<void>((r, j) =>
    device.send(Buffer.from(text), server.port, server.address, (e) => (e ? j(e) : r())),
  );

describe('a device that speaks datagrams, through the same push service', () => {
  it('its SIM status fills the inventory and is answered at its source address', async () => {
    await send('box7 right-pw SIM 1 15550001111');
    await waitFor(async () => answers.includes('OK SIM 1'));
    const sims = await s.db.query<{ port: string; number: string | null }>(
      'SELECT port, number FROM sims WHERE gateway_id = $1',
      [gatewayId],
    );
    expect(sims).toEqual([{ port: '1', number: '15550001111' }]);
  });

  it('an incoming SMS reaches the consumers once, its re-send is answered again and not stored twice', async () => {
    await send('box7 right-pw SMS 41 +15557770000 Your code: 123456; keep it');
    await waitFor(async () => answers.includes('OK SMS 41'));
    await send('box7 right-pw SMS 41 +15557770000 Your code: 123456; keep it');
    await waitFor(async () => answers.filter((a) => a === 'OK SMS 41').length === 2);
    const mine = handed.filter((h) => h.gatewayId === gatewayId);
    expect(mine.map((h) => [h.sender, h.text, h.simNumber])).toEqual([
      ['+15557770000', 'Your code: 123456; keep it', '15550001111'],
    ]);
  });

  it('a wrong password or an unknown login gets no answer and stores nothing', async () => {
    const before = answers.length;
    await send('box7 wrong-pw SMS 42 +15557770000 forged');
    await send('nobody right-pw SMS 43 +15557770000 forged');
    await send('box7 right-pw SMS 44 +15557770000 after');
    // Datagrams from one socket arrive in order: once the third is answered, the first two were handled.
    await waitFor(async () => answers.includes('OK SMS 44'));
    expect(answers.slice(before)).toEqual(['OK SMS 44']);
    expect(handed.map((h) => h.text)).not.toContain('forged');
    expect(s.logs.join('\n')).toContain('wrong password');
    expect(s.logs.join('\n')).toContain('unknown device login');
    // A flood from one address is one line a minute per cause, whatever logins it makes up.
    const refusedLines = () => s.logs.filter((l) => l.includes('device datagram refused')).length;
    const logged = refusedLines();
    for (let i = 0; i < 20; i++) await send(`nobody${i} right-pw SMS ${50 + i} +15557770000 flood`);
    await send('box7 right-pw SMS 99 +15557770000 after the flood');
    await waitFor(async () => answers.includes('OK SMS 99'));
    expect(refusedLines()).toBe(logged);
  });

  it("the driver reaches the listener's socket through the runtime to send to the device", async () => {
    const gw = await pushTargets(s.ctx).get(gatewayId);
    const driver = driverFor(s.ctx, gw!);
    const outcomes = await driver.sendTasks([{ tid: 9, to: '15553334444', sms: 'Hello by datagram' }], {
      base: '',
      status: '',
      sms: '',
      report: '',
    });
    expect(outcomes).toEqual([{ tid: 9, outcome: 'accepted', deviceText: 'sent' }]);
    await waitFor(async () => answers.includes('SEND 9 15553334444 Hello by datagram'));
  });
});
