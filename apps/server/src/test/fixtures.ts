import { randomUUID } from 'node:crypto';
import { endpoints } from '@simdock/contract';
import type { Db } from '../db/db.ts';
import { ingestIncomingSms } from '../modules/gateways/index.ts';
import type { TestServer } from './harness.ts';

/** A gateway put in by seedGateway: its SIMs' numbers and ports, index for index. */
export interface SeededGateway {
  id: string;
  numbers: string[];
  ports: string[];
}

/**
 * Puts an online gateway with `sims` registered SIMs straight into the database, for rental
 * tests that don't need a device. (The gateway tests and the end-to-end rental test use the
 * simulator over the real protocol.)
 */
export async function seedGateway(
  db: Db,
  opts: {
    name?: string;
    sims?: number;
    lastUpdate: Date;
    numberBase?: number;
    /** MCC + MNC of the SIMs' IMSIs ("26202": Vodafone Germany); none: the ICCID says US. */
    imsiPrefix?: string;
  },
): Promise<SeededGateway> {
  const name = opts.name ?? `gw-${Math.random().toString(36).slice(2, 8)}`;
  const mac = Array.from({ length: 6 }, () =>
    Math.floor(Math.random() * 256)
      .toString(16)
      .padStart(2, '0'),
  ).join(':');
  const [gw] = await db.query<{ id: string }>(
    `INSERT INTO gateways (name, url, mac, user_name, password_enc, push_secret, total_sim, last_update)
     VALUES ($1, 'http://127.0.0.1:9', $2, 'root', 'x', 'secret', $3, $4) RETURNING id`,
    [name, mac, opts.sims ?? 4, opts.lastUpdate],
  );
  const base = opts.numberBase ?? 15550000000 + Math.floor(Math.random() * 90000) * 100;
  const numbers: string[] = [];
  const ports: string[] = [];
  for (let i = 1; i <= (opts.sims ?? 4); i++) {
    const port = `${i}.01`;
    const number = String(base + i);
    numbers.push(number);
    ports.push(port);
    const imsi = opts.imsiPrefix
      ? opts.imsiPrefix + String(i).padStart(15 - opts.imsiPrefix.length, '0')
      : null;
    await db.query(
      `INSERT INTO sims (gateway_id, port, iccid, imsi, number, number_source, state)
       VALUES ($1, $2, $3, $4, $5, 'device', 'ready')`,
      [gw!.id, port, `8901${number}`, imsi, number],
    );
  }
  return { id: gw!.id, numbers, ports };
}

/** An SMS from "Service" on a gateway port, stored as a device push would be (then the consumers). */
export function smsToPort(
  ctx: Parameters<typeof ingestIncomingSms>[0],
  gatewayId: string,
  port: string,
  text: string,
): ReturnType<typeof ingestIncomingSms> {
  return ingestIncomingSms(ctx, [
    {
      gatewayId,
      port,
      isReport: false,
      ts: null,
      sender: 'Service',
      recipient: null,
      text,
      dedupeKey: randomUUID(),
    },
  ]);
}

/** An SMS from "Service" to one of a seeded gateway's numbers, stored as a device push would be. */
export async function smsToNumber(
  ctx: Parameters<typeof ingestIncomingSms>[0],
  gw: SeededGateway,
  phone: string,
  text: string,
): Promise<void> {
  await smsToPort(ctx, gw.id, gw.ports[gw.numbers.indexOf(phone)]!, text);
}

export async function addService(
  db: Db,
  s: {
    code: string;
    name?: string;
    price?: number;
    textContains?: string;
    pattern?: string;
    repeatable?: boolean;
    rentMinutes?: number;
    stock?: number;
  },
): Promise<string> {
  const [row] = await db.query<{ id: string }>(
    `INSERT INTO services (name, code, price, pattern, text_contains, is_repeatable, rent_time_minutes, stock)
     VALUES ($1, $2, $3::numeric, $4, $5, $6, $7, $8) RETURNING id`,
    [
      s.name ?? s.code,
      s.code,
      String(s.price ?? 1),
      s.pattern ?? '\\d{4,8}',
      s.textContains ?? s.name ?? s.code,
      s.repeatable ?? false,
      s.rentMinutes ?? 20,
      s.stock ?? 1000,
    ],
  );
  return row!.id;
}

/** The ledger invariant: every user's balance equals the sum of their ledger rows. */
export async function ledgerMismatches(
  db: Db,
): Promise<{ username: string; balance: string; ledger: string }[]> {
  return db.query(
    `SELECT u.username, u.balance::text AS balance, COALESCE(sum(l.amount), 0)::text AS ledger
       FROM users u LEFT JOIN ledger l ON l.user_id = u.id
      GROUP BY u.id HAVING u.balance <> COALESCE(sum(l.amount), 0)`,
  );
}

/** Stores an SMS as the ingestion would, then runs the consumers. */
export async function waitFor<T>(fn: () => Promise<T | undefined | false>, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > until) throw new Error('waitFor timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The body an Ejoin device pushes for one received SMS on `port` (recv-sms, base64 content). */
export function recvSmsPush(port: string, text: string, at: Date, sender = '+15550009999') {
  return {
    type: 'recv-sms',
    sms_num: 1,
    sms: [[0, port, Math.floor(at.getTime() / 1000), sender, '', Buffer.from(text).toString('base64')]],
  };
}

/**
 * Adds a simulated gateway through the admin API and scans it (as an admin would), then waits for
 * its first pushes: its SIMs are known and it is online. The gateway's id.
 */
export async function addSimGateway(
  s: Pick<TestServer, 'api'>,
  adminToken: string,
  sim: { url: string; mac: string; pushesSettled(): Promise<void> },
  name: string,
  password = 'root',
): Promise<string> {
  const add = await s.api(endpoints.gateway.update, {
    body: { gateway: { name, url: sim.url, mac: sim.mac, userName: 'root', password } },
    token: adminToken,
  });
  if (add.status !== 200)
    throw new Error(`adding the gateway failed: ${add.status} ${JSON.stringify(add.body)}`);
  const id = String(add.body.id);
  const scan = await s.api(endpoints.gateway.scan, { body: { id }, token: adminToken });
  if (scan.status !== 200)
    throw new Error(`scanning the gateway failed: ${scan.status} ${JSON.stringify(scan.body)}`);
  await sim.pushesSettled();
  return id;
}

/** A new user with `balance` and an API key of all scopes (reset, as the API Key page does): `key`. */
export async function userWithApiKey(
  s: Pick<TestServer, 'api' | 'createUser' | 'reauth'>,
  balance: number,
): Promise<Awaited<ReturnType<TestServer['createUser']>> & { key: string }> {
  const u = await s.createUser({ balance });
  const key: string = (await s.api(endpoints.apikey.reset, { token: u.token, headers: await s.reauth(u) }))
    .body.apiKey;
  return { ...u, key };
}
