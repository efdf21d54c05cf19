import { z } from 'zod';
import { defineConfig } from '../../config.ts';

/** Top-up: the provider, NOWPayments' account and the reconciliation. */
export const paymentsConfig = defineConfig({
  shape: {
    /** Top-up provider: `sandbox` (default outside production), `nowpayments`, or `none` (top-up off; production default). */
    PAYMENT_PROVIDER: z.enum(['sandbox', 'nowpayments', 'none']).optional(),
    NOWPAYMENTS_API_URL: z
      .url('must be a URL such as https://api.nowpayments.io/v1')
      .default('https://api.nowpayments.io/v1'),
    NOWPAYMENTS_API_KEY: z.string().optional(),
    NOWPAYMENTS_IPN_SECRET: z.string().optional(),
    /** Dashboard login: lets the reconciliation list an invoice's payments (`GET /v1/payment/?invoiceId=`). */
    NOWPAYMENTS_EMAIL: z.string().optional(),
    NOWPAYMENTS_PASSWORD: z.string().optional(),
    /** Coin pinned on every invoice; `any` lets the payer choose on the hosted page. */
    NOWPAYMENTS_PAY_CURRENCY: z
      .string()
      .regex(/^[a-z0-9]+$/i, 'must be a coin code such as usdttrc20, or any')
      .default('usdttrc20'),
    NOWPAYMENTS_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /** An invoice nobody paid is FAILED (gwStatus `expired`) after this long. */
    PAYMENT_INVOICE_TTL_HOURS: z.coerce.number().positive().default(24),
    /** How often the reconciliation asks the provider about unfinished payments. */
    PAYMENT_RECONCILE_INTERVAL_MS: z.coerce.number().int().positive().default(60_000),
    /** An unfinished payment is asked about once it has been quiet this long (and again after as long). */
    PAYMENT_RECONCILE_AFTER_MINUTES: z.coerce.number().min(0).default(10),
  },
  problems: (env) => {
    const problems: string[] = [];
    const provider = env.PAYMENT_PROVIDER;
    if (env.NODE_ENV === 'production' && provider === 'sandbox') {
      problems.push(
        'PAYMENT_PROVIDER: the sandbox moves no real money and never runs with NODE_ENV=production',
      );
    }
    if (provider === 'nowpayments') {
      for (const name of ['NOWPAYMENTS_API_KEY', 'NOWPAYMENTS_IPN_SECRET'] as const) {
        if (!env[name]) problems.push(`${name}: is required when PAYMENT_PROVIDER=nowpayments`);
      }
    }
    return problems;
  },
  resolve: (c, kernel): { PAYMENT_PROVIDER: 'sandbox' | 'nowpayments' | 'none' } => ({
    PAYMENT_PROVIDER: c.PAYMENT_PROVIDER ?? (kernel.NODE_ENV === 'production' ? 'none' : 'sandbox'),
  }),
});
