/**
 * What the scale benchmark's seeder (bench/scale-seed.ts) and measurement (bench/scale.ts) share:
 * the fraction, the database it lives in and the sizes of the data set at that fraction.
 */

/** The server a benchmark database is created on (any database of it; the bench makes its own). */
export const ADMIN_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** SCALE=0.1 (10 %, the default) … SCALE=1 (an operator's size). */
export const SCALE = Number(process.env.SCALE ?? 0.1);
if (!(SCALE > 0 && SCALE <= 1)) throw new Error(`SCALE must be in (0, 1]: ${process.env.SCALE}`);

/** The database holding the data set of this fraction (SCALE_DB overrides): seeded once, measured many times. */
export const DB_NAME = process.env.SCALE_DB ?? `simdock_scale_${Math.round(SCALE * 1000)}`;

export function databaseUrl(name = DB_NAME): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

const n = (full: number, min = 1) => Math.max(min, Math.round(full * SCALE));

/**
 * The data set at SCALE. Everything scales with the fraction except the catalogue: an operator has
 * its 200 services whatever its traffic (and a number can serve a service once, so the pairs of
 * numbers and services must grow with the orders, not with the square of the fraction).
 */
export const SIZES = {
  users: n(100_000, 100),
  services: 200,
  gateways: n(200),
  portsPerGateway: 32,
  orders: n(2_000_000),
  incomingSms: n(1_200_000),
  messages: n(5_000_000),
  senders: n(5_000, 10),
  conversations: n(100_000, 200),
  payments: n(200_000),
  audit: n(500_000),
  days: 90,
} as const;

/** The heavy user: the top renter and the top sender (5 % of the orders and of the messages). */
export const HEAVY_USER = 'heavy';
/** Seeded users' password is set by the measurement (a copy of the admin's hash): see scale.ts. */
export const SEED_TABLE = 'bench_scale_meta';
