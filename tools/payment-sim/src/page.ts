// The hosted invoice page: plain server-rendered HTML a tester (or Playwright) can click through.
import type { Invoice, Payment } from './model.ts';

function esc(s: string | number | null | undefined): string {
  return String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

const STYLE = `body{font-family:system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}
.banner{background:#fff3cd;border:2px solid #b58100;padding:.75rem 1rem;border-radius:.5rem;font-weight:600}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem}dt{color:#555}dd{margin:0;word-break:break-all}
form{display:inline-block;margin:.25rem .25rem .25rem 0}button{padding:.5rem .9rem;font-size:1rem;cursor:pointer}
input{padding:.45rem;width:8rem}table{border-collapse:collapse;margin-top:1rem}td,th{border:1px solid #ccc;padding:.25rem .5rem}`;

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(title)} · Payment simulator</title><style>${STYLE}</style></head>
<body><p class="banner" role="note">Payment simulator — not a real payment. No money moves; this page stands in for
the NOWPayments hosted invoice in tests and local demos.</p>${body}</body></html>`;
}

export function invoicePage(
  inv: Invoice,
  payments: Payment[],
  payAmount: string,
  payCurrency: string,
  address: string,
): string {
  const action = `/payment/?iid=${encodeURIComponent(String(inv.id))}`;
  const button = (outcome: string, label: string, withAmount = false) =>
    `<form method="post" action="${esc(action)}"><input type="hidden" name="outcome" value="${outcome}">` +
    (withAmount
      ? `<label>Amount <input name="amount" inputmode="decimal" aria-label="${esc(label)} amount"></label> `
      : '') +
    `<button type="submit">${esc(label)}</button></form>`;
  const rows = payments
    .map(
      (p) =>
        `<tr><td>${esc(p.id)}</td><td>${esc(p.status)}</td><td>${esc(p.actuallyPaid)} ${esc(p.payCurrency)}</td>` +
        `<td>${esc(p.parentId ?? '')}</td></tr>`,
    )
    .join('');
  return layout(
    `Invoice ${inv.id}`,
    `<h1>Payment simulator: invoice ${esc(inv.id)}</h1>
<dl><dt>Order</dt><dd>${esc(inv.orderId)}</dd><dt>Description</dt><dd>${esc(inv.orderDescription)}</dd>
<dt>Price</dt><dd data-testid="price">${esc(inv.priceAmount)} ${esc(inv.priceCurrency.toUpperCase())}</dd>
<dt>Pay</dt><dd data-testid="pay-amount">${esc(payAmount)} ${esc(payCurrency.toUpperCase())}</dd>
<dt>Address</dt><dd data-testid="pay-address">${esc(address)}</dd></dl>
${inv.abandoned ? '<p>The payer left this invoice without paying.</p>' : ''}
<h2>Choose what the payer does</h2>
<div>${button('exact', 'Pay exact amount')}${button('over', 'Overpay', true)}</div>
<div>${button('partial', 'Pay partially', true)}</div>
<div>${button('fail', 'Fail')}${button('expire', 'Let it expire')}${button('abandon', 'Leave without paying')}</div>
${rows ? `<h2>Payments</h2><table><thead><tr><th>payment_id</th><th>status</th><th>actually paid</th><th>parent</th></tr></thead><tbody>${rows}</tbody></table>` : ''}`,
  );
}

export function resultPage(inv: Invoice, text: string): string {
  return layout(
    `Invoice ${inv.id}`,
    `<h1>Payment simulator</h1><p>${esc(text)}</p><p><a href="/payment/?iid=${esc(inv.id)}">Back to invoice ${esc(inv.id)}</a></p>`,
  );
}

export function notFoundPage(): string {
  return layout('Not found', '<h1>Payment simulator</h1><p>No such invoice.</p>');
}
