// Picks the configured provider (PAYMENT_PROVIDER) once per application context.
import type { AppContext } from '../../../context.ts';
import { NowPaymentsProvider } from './nowpayments.ts';
import type { PaymentProvider } from './provider.ts';
import { SandboxProvider } from './sandbox.ts';

const chosen = new WeakMap<AppContext, PaymentProvider | null>();

/** The configured provider, or null when top-up is switched off (`PAYMENT_PROVIDER=none`). */
export function providerOf(ctx: AppContext): PaymentProvider | null {
  if (chosen.has(ctx)) return chosen.get(ctx) ?? null;
  const c = ctx.config;
  let provider: PaymentProvider | null = null;
  if (c.PAYMENT_PROVIDER === 'sandbox')
    provider = new SandboxProvider(ctx.db, c.APP_SECRET, () => ctx.clock.now());
  if (c.PAYMENT_PROVIDER === 'nowpayments') {
    provider = new NowPaymentsProvider({
      apiUrl: c.NOWPAYMENTS_API_URL,
      apiKey: c.NOWPAYMENTS_API_KEY ?? '',
      ipnSecret: c.NOWPAYMENTS_IPN_SECRET ?? '',
      email: c.NOWPAYMENTS_EMAIL,
      password: c.NOWPAYMENTS_PASSWORD,
      payCurrency: c.NOWPAYMENTS_PAY_CURRENCY === 'any' ? null : c.NOWPAYMENTS_PAY_CURRENCY,
      timeoutMs: c.NOWPAYMENTS_TIMEOUT_MS,
    });
  }
  chosen.set(ctx, provider);
  return provider;
}

export type { PaymentEvent, PaymentProvider, WebhookHeaders } from './provider.ts';
export { PaymentProviderError } from './provider.ts';
export { SANDBOX_OUTCOMES, type SandboxOutcome, SandboxProvider } from './sandbox.ts';
