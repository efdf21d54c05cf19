import { randomBytes } from 'node:crypto';
import { endpoints } from '@simdock/contract';
import type { FastifyReply } from 'fastify';
import type { AppContext } from '../../context.ts';
import { route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { receiveWebhook } from './payments.service.ts';
import {
  PaymentProviderError,
  providerOf,
  SANDBOX_OUTCOMES,
  type SandboxOutcome,
  SandboxProvider,
} from './providers/index.ts';
import type { SandboxInvoice } from './providers/sandbox.queries.ts';

// The sandbox's hosted invoice page (only with PAYMENT_PROVIDER=sandbox): the tester picks what
// the "payer" does. Each choice becomes the signed webhooks a provider would send, handed to the
// same webhook code a real provider's requests go through.

export function sandboxRoutes(app: App, ctx: AppContext) {
  const sandbox = providerOf(ctx);
  if (!(sandbox instanceof SandboxProvider)) return;

  route(app, ctx, endpoints.sandbox.page, async (req, reply) => {
    const inv = await sandbox.invoice(req.params.id);
    return page(reply, inv, inv ? null : 'This sandbox invoice does not exist.', inv ? 200 : 404);
  });

  route(app, ctx, endpoints.sandbox.pay, async (req, reply) => {
    const inv = await sandbox.invoice(req.params.id);
    if (!inv) return page(reply, undefined, 'This sandbox invoice does not exist.', 404);
    const raw: unknown = req.body;
    const form = new URLSearchParams(typeof raw === 'string' ? raw : '');
    const outcome = form.get('outcome') ?? '';
    if (outcome === 'abandon') return reply.redirect(inv.cancelUrl, 303);
    if (!(SANDBOX_OUTCOMES as readonly string[]).includes(outcome))
      return page(reply, inv, 'Choose one of the outcomes below.', 400);
    let webhooks: Awaited<ReturnType<SandboxProvider['pay']>>;
    try {
      webhooks = await sandbox.pay(inv.id, outcome as SandboxOutcome, form.get('amount') ?? undefined);
    } catch (err) {
      if (err instanceof PaymentProviderError)
        return page(reply, inv, err.message, err.kind === 'rejected' ? 409 : 404);
      throw err;
    }
    for (const w of webhooks) await receiveWebhook(ctx, w.raw, w.headers);
    return reply.redirect(inv.successUrl, 303);
  });
}

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function page(reply: FastifyReply, inv: SandboxInvoice | undefined, error: string | null, status: number) {
  // The page's one inline style is allowed by a nonce; nothing else runs or loads.
  const nonce = randomBytes(16).toString('base64');
  reply.header(
    'content-security-policy',
    `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  );
  reply.header('cache-control', 'no-store');
  const amount = inv?.amount ?? '0.00';
  const choice = (outcome: string, label: string, hint: string, field?: { value: string; label: string }) =>
    `<form method="post"><input type="hidden" name="outcome" value="${outcome}">
      <button type="submit">${esc(label)}</button>
      ${field ? `<label>${esc(field.label)} <input name="amount" inputmode="decimal" value="${esc(field.value)}" required></label>` : ''}
      <span class="hint">${esc(hint)}</span></form>`;
  const cents = Math.round(Number(amount) * 100);
  const body = !inv
    ? ''
    : inv.status !== 'waiting'
      ? `<p>This invoice has been paid already (<strong>${esc(inv.status)}</strong>, ${esc(inv.paid ?? '0.00')} USDT).</p>
         <p><a href="${esc(inv.successUrl)}">Back to SimDock</a></p>`
      : `<dl><dt>Amount</dt><dd>${esc(amount)} USD</dd><dt>Pay in</dt><dd>USDT (TRC20), rate 1</dd>
           <dt>Invoice</dt><dd>${esc(inv.id)}</dd></dl>
         <h2>What does the payer do?</h2>
         ${choice('exact', 'Pay exactly', `Sends ${amount} USDT.`)}
         ${choice('partial', 'Pay partially', 'Credited for what arrived.', { value: (Math.floor(cents / 2) / 100).toFixed(2), label: 'USDT sent' })}
         ${choice('over', 'Overpay', 'Credited for what arrived.', { value: ((cents + 500) / 100).toFixed(2), label: 'USDT sent' })}
         ${choice('fail', 'Payment fails', 'Nothing arrives; the top-up fails.')}
         ${choice('abandon', 'Leave without paying', 'The invoice stays unpaid until it expires.')}`;
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sandbox invoice · SimDock</title>
<style nonce="${nonce}">
body{font-family:system-ui,sans-serif;max-width:42rem;margin:1.5rem auto;padding:0 1rem;color:#1a1a1a;line-height:1.45}
.banner{background:#fff3cd;border:2px solid #b58100;padding:.75rem 1rem;border-radius:.5rem;font-weight:600}
.error{background:#fde8e8;border:1px solid #c0392b;padding:.6rem 1rem;border-radius:.5rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{color:#555}dd{margin:0;word-break:break-all}
form{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem;margin:.6rem 0}
button{padding:.55rem 1rem;font-size:1rem;cursor:pointer;border-radius:.4rem;border:1px solid #888;background:#f4f4f4;min-width:11rem}
button:focus-visible,input:focus-visible{outline:3px solid #2563eb;outline-offset:2px}
input{padding:.45rem;width:7rem;font-size:1rem}.hint{color:#555;font-size:.9rem}
</style></head>
<body><p class="banner" role="note">SANDBOX — not a real payment. No money moves: this page stands in for a
crypto invoice so the top-up can be tried without a provider.</p>
<h1>Top-up invoice</h1>
${error ? `<p class="error" role="alert">${esc(error)}</p>` : ''}
${body}
</body></html>`);
}
