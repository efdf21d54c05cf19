import type { Dialect } from './signing.ts';

export type Outcome = 'exact' | 'partial' | 'over' | 'fail' | 'expire' | 'abandon';
export const OUTCOMES: readonly Outcome[] = ['exact', 'partial', 'over', 'fail', 'expire', 'abandon'];

/** How a forged IPN is broken. */
export type Forgery = 'wrong-secret' | 'tampered-body' | 'no-signature';
export const FORGERIES: readonly Forgery[] = ['wrong-secret', 'tampered-body', 'no-signature'];

export interface Modes {
  /** Every IPN is delivered twice (same body, same signature). */
  duplicate: boolean;
  /** The `confirming` IPN is held back and delivered after the final one. */
  reorder: boolean;
  /** Every IPN carries a broken signature (null = correctly signed). */
  forge: Forgery | null;
  /** After a payment ends `finished`, a repeated deposit of this amount follows (null = off). */
  repeatDeposit: string | null;
  /** Encoder of the IPN body and of the signed text (see signing.ts). */
  dialect: Dialect;
  /** Extra members added to every IPN body (the verifier must hash fields it does not know). */
  extraFields: Record<string, unknown>;
  /** The /v1 API answers 500 (`http500`) or not at all (`hang`); null = healthy. */
  apiFault: 'http500' | 'hang' | null;
  /** Delay before every /v1 answer, ms. */
  apiDelayMs: number;
}

export const DEFAULT_MODES: Modes = {
  duplicate: false,
  reorder: false,
  forge: null,
  repeatDeposit: null,
  dialect: 'node',
  extraFields: {},
  apiFault: null,
  apiDelayMs: 0,
};

export interface SimOptions {
  /** Listen address, default 127.0.0.1. */
  host?: string;
  /** Listen port, default 0 (random). */
  port?: number;
  /** Base of `invoice_url` (default: the simulator's own URL). */
  publicUrl?: string;
  /** The merchant's API key (`x-api-key`), default `sim-api-key`. */
  apiKey?: string;
  /** IPN secret; an empty string means no IPN secret was generated, so no IPNs are sent. */
  ipnSecret?: string;
  /** Dashboard credentials for `POST /v1/auth`, default `merchant@example.com` / `sim-password`. */
  email?: string;
  password?: string;
  /** Lifetime of a `/v1/auth` token, default 300000 ms (5 min). */
  tokenTtlMs?: number;
  /** Time between two status steps of a payment, default 1000 ms. */
  stepDelayMs?: number;
  /** An IPN answered later than this counts as failed, default 3000 ms (the provider's limit). */
  ipnTimeoutMs?: number;
  /** Resends of a failed IPN ("Number of recurrent notifications"), default 5. */
  ipnRetries?: number;
  /** Interval between resends ("Timeout"), default 60000 ms. */
  ipnRetryIntervalMs?: number;
  /** USD price of one unit of each pay currency (stablecoins 1), used for `pay_amount`. */
  rates?: Record<string, string>;
  /** Smallest `price_amount` accepted (AMOUNT_MINIMAL_ERROR below), default 1. */
  minAmount?: number;
  /** Pay currency used when the invoice pins none, default `usdttrc20`. */
  defaultPayCurrency?: string;
  /** First payment id (ids are consecutive 10-digit numbers), default 5000000001. */
  firstId?: number;
  /** Initial modes. */
  modes?: Partial<Modes>;
}

export const DEFAULT_RATES: Record<string, string> = {
  usdttrc20: '1',
  usdterc20: '1',
  usdtbsc: '1',
  usdc: '1',
  trx: '0.25',
  btc: '64000',
  eth: '3200',
};
