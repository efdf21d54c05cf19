import { randomBytes } from 'node:crypto';
import { endpoints, type Language, preferredLanguage } from '@simdock/contract';
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
    return page(reply, inv, inv ? null : (t) => t.notFound, inv ? 200 : 404);
  });

  route(app, ctx, endpoints.sandbox.pay, async (req, reply) => {
    const inv = await sandbox.invoice(req.params.id);
    if (!inv) return page(reply, undefined, (t) => t.notFound, 404);
    const raw: unknown = req.body;
    const form = new URLSearchParams(typeof raw === 'string' ? raw : '');
    const outcome = form.get('outcome') ?? '';
    if (outcome === 'abandon') return reply.redirect(inv.cancelUrl, 303);
    if (!(SANDBOX_OUTCOMES as readonly string[]).includes(outcome))
      return page(reply, inv, (t) => t.choose, 400);
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

/** The page's words in English and Vietnamese (the web app's two languages). */
const TEXTS = {
  en: {
    title: 'Top-up invoice',
    banner:
      'SANDBOX — not a real payment. No money moves: this page stands in for a crypto invoice so the top-up can be tried without a provider.',
    notFound: 'This sandbox invoice does not exist.',
    choose: 'Choose one of the outcomes below.',
    paid: (status: string, paid: string) => `This invoice has been paid already (${status}, ${paid} USDT).`,
    back: 'Back to SimDock',
    amount: 'Amount',
    payIn: 'Pay in',
    payInValue: 'USDT (TRC20), rate 1',
    invoice: 'Invoice',
    question: 'What does the payer do?',
    exact: 'Pay exactly',
    exactHint: (amount: string) => `Sends ${amount} USDT.`,
    partial: 'Pay partially',
    over: 'Overpay',
    arrived: 'Credited for what arrived.',
    sent: 'USDT sent',
    fail: 'Payment fails',
    failHint: 'Nothing arrives; the top-up fails.',
    abandon: 'Leave without paying',
    abandonHint: 'The invoice stays unpaid until it expires.',
  },
  vi: {
    title: 'Hóa đơn nạp tiền',
    banner:
      'SANDBOX — không phải thanh toán thật. Không có tiền nào được chuyển: trang này thay cho hóa đơn tiền mã hóa để thử nạp tiền mà không cần nhà cung cấp.',
    notFound: 'Hóa đơn sandbox này không tồn tại.',
    choose: 'Hãy chọn một kết quả bên dưới.',
    paid: (status: string, paid: string) => `Hóa đơn này đã được thanh toán (${status}, ${paid} USDT).`,
    back: 'Quay lại SimDock',
    amount: 'Số tiền',
    payIn: 'Thanh toán bằng',
    payInValue: 'USDT (TRC20), tỷ giá 1',
    invoice: 'Hóa đơn',
    question: 'Người trả tiền làm gì?',
    exact: 'Trả đúng số tiền',
    exactHint: (amount: string) => `Gửi ${amount} USDT.`,
    partial: 'Trả một phần',
    over: 'Trả dư',
    arrived: 'Được cộng theo số tiền đã đến.',
    sent: 'USDT đã gửi',
    fail: 'Thanh toán thất bại',
    failHint: 'Không có tiền đến; lần nạp thất bại.',
    abandon: 'Rời đi mà không trả',
    abandonHint: 'Hóa đơn vẫn chưa thanh toán cho đến khi hết hạn.',
  },
};

/**
 * The page looks like the app (its colours, a card, the primary button) and follows the system's
 * light or dark scheme; it is written in the browser's language (English or Vietnamese).
 */
const STYLE = `:root{color-scheme:light dark;--page:#f6f7f9;--surface:#fff;--subtle:#f1f3f6;--line:#e3e6eb;--fg:#1c2230;
--muted:#5f6b7d;--accent:#4f46e5;--accent-hover:#4338ca;--warn:#a16207;--warn-soft:#fdf5dc;--bad:#b91c1c;--bad-soft:#fdecec}
@media (prefers-color-scheme:dark){:root{--page:#0f131a;--surface:#171c25;--subtle:#1e2430;--line:#2a3140;--fg:#e6e9ef;
--muted:#9aa4b5;--accent:#5a54ec;--accent-hover:#4f46e5;--warn:#facc15;--warn-soft:#33290b;--bad:#f87171;--bad-soft:#3a1717}}
*{box-sizing:border-box}
body{margin:0;background:var(--page);color:var(--fg);font:14px/1.5 Inter,ui-sans-serif,system-ui,-apple-system,"Segoe UI",sans-serif}
main{max-width:40rem;margin:0 auto;padding:1.5rem 1rem}
.brand{display:flex;align-items:center;gap:.5rem;font-weight:600;font-size:15px;margin-bottom:1rem}
.logo{display:inline-grid;place-items:center;width:1.75rem;height:1.75rem;border-radius:.5rem;background:var(--accent);color:#fff;font-size:13px}
.banner{background:var(--warn-soft);color:var(--warn);border:1px solid currentColor;padding:.65rem .9rem;border-radius:.5rem;font-weight:600;margin:0 0 1rem}
.card{background:var(--surface);border:1px solid var(--line);border-radius:.75rem;padding:1.25rem}
h1{font-size:20px;margin:0 0 .75rem}h2{font-size:15px;margin:1.25rem 0 .5rem}
.error{background:var(--bad-soft);color:var(--bad);border:1px solid currentColor;padding:.6rem .9rem;border-radius:.5rem}
dl{display:grid;grid-template-columns:max-content 1fr;align-items:baseline;gap:.35rem 1rem;margin:0}dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}
.amount{font-size:18px;font-weight:600;font-variant-numeric:tabular-nums}
form{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem .75rem;padding:.6rem 0;border-top:1px solid var(--line)}
button{min-width:11rem;padding:.5rem .9rem;font:inherit;font-weight:500;border-radius:.5rem;cursor:pointer;border:1px solid var(--line);background:var(--surface);color:var(--fg)}
button:hover{background:var(--subtle)}
.primary{background:var(--accent);border-color:var(--accent);color:#fff}.primary:hover{background:var(--accent-hover)}
button:focus-visible,input:focus-visible,a:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
label{display:inline-flex;align-items:center;gap:.4rem;color:var(--muted)}
input{width:7rem;padding:.4rem .5rem;font:inherit;color:var(--fg);background:var(--surface);border:1px solid var(--line);border-radius:.4rem}
.hint{color:var(--muted);font-size:13px}a{color:var(--accent)}`;

function page(
  reply: FastifyReply,
  inv: SandboxInvoice | undefined,
  error: ((t: (typeof TEXTS)[Language]) => string) | string | null,
  status: number,
) {
  const lang = preferredLanguage(reply.request.headers['accept-language']);
  const t = TEXTS[lang];
  // The page's one inline style is allowed by a nonce; nothing else runs or loads.
  const nonce = randomBytes(16).toString('base64');
  reply.header(
    'content-security-policy',
    `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  );
  reply.header('cache-control', 'no-store');
  reply.header('vary', 'Accept-Language');
  const amount = inv?.amount ?? '0.00';
  const choice = (
    outcome: string,
    label: string,
    hint: string,
    field?: { value: string; label: string },
    primary = false,
  ) =>
    `<form method="post"><input type="hidden" name="outcome" value="${outcome}">
      <button type="submit"${primary ? ' class="primary"' : ''}>${esc(label)}</button>
      ${field ? `<label>${esc(field.label)} <input name="amount" inputmode="decimal" value="${esc(field.value)}" required></label>` : ''}
      <span class="hint">${esc(hint)}</span></form>`;
  const cents = Math.round(Number(amount) * 100);
  const body = !inv
    ? ''
    : inv.status !== 'waiting'
      ? `<p>${esc(t.paid(inv.status, inv.paid ?? '0.00'))}</p>
         <p><a href="${esc(inv.successUrl)}">${esc(t.back)}</a></p>`
      : `<dl><dt>${esc(t.amount)}</dt><dd class="amount">${esc(amount)} USD</dd><dt>${esc(t.payIn)}</dt><dd>${esc(t.payInValue)}</dd>
           <dt>${esc(t.invoice)}</dt><dd>${esc(inv.id)}</dd></dl>
         <h2>${esc(t.question)}</h2>
         ${choice('exact', t.exact, t.exactHint(amount), undefined, true)}
         ${choice('partial', t.partial, t.arrived, { value: (Math.floor(cents / 2) / 100).toFixed(2), label: t.sent })}
         ${choice('over', t.over, t.arrived, { value: ((cents + 500) / 100).toFixed(2), label: t.sent })}
         ${choice('fail', t.fail, t.failHint)}
         ${choice('abandon', t.abandon, t.abandonHint)}`;
  const errorText = typeof error === 'function' ? error(t) : error;
  return reply
    .status(status)
    .type('text/html; charset=utf-8')
    .send(`<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${esc(t.title)} · SimDock</title>
<style nonce="${nonce}">${STYLE}</style></head>
<body><main><div class="brand"><span class="logo" aria-hidden="true">S</span>SimDock</div>
<p class="banner" role="note">${esc(t.banner)}</p>
<div class="card"><h1>${esc(t.title)}</h1>
${errorText ? `<p class="error" role="alert">${esc(errorText)}</p>` : ''}
${body}
</div></main></body></html>`);
}
