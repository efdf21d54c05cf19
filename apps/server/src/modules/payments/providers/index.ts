// Picks the configured provider (PAYMENT_PROVIDER) once per server (kept in its ctx.runtime).
import type { AppContext } from '../../../context.ts';
import { runtimeKey } from '../../../runtime.ts';
import { NowPaymentsProvider } from './nowpayments.ts';
import type { PaymentProvider } from './provider.ts';
import { SandboxProvider } from './sandbox.ts';

const PROVIDER = runtimeKey<PaymentProvider | null>('payments.provider');

/** The configured provider, or null when top-up is switched off (`PAYMENT_PROVIDER=none`). */
export function providerOf(ctx: AppContext): PaymentProvider | null {
  return ctx.runtime.get(PROVIDER, () => chooseProvider(ctx));
}

function chooseProvider(ctx: AppContext): PaymentProvider | null {
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
  return provider;
}

export type { PaymentEvent, PaymentProvider, WebhookHeaders } from './provider.ts';
export { PaymentProviderError } from './provider.ts';
export { SANDBOX_OUTCOMES, type SandboxOutcome, SandboxProvider } from './sandbox.ts';
