// The hosted invoice page: plain server-rendered HTML a tester (or Playwright) can click through. It
// looks like SimDock (its colours, a card), follows the system's light or dark scheme and is written
// in English or Vietnamese, as the browser's Accept-Language asks.
import type { Language } from '@simdock/contract';
import type { Invoice, Payment } from './model.ts';

function esc(s: string | number | null | undefined): string {
  return String(s ?? '').replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string,
  );
}

const TEXTS = {
  en: {
    sim: 'Payment simulator',
    banner:
      'Payment simulator — not a real payment. No money moves; this page stands in for the NOWPayments hosted invoice in tests and local demos.',
    invoice: 'Invoice',
    order: 'Order',
    description: 'Description',
    price: 'Price',
    pay: 'Pay',
    address: 'Address',
    abandoned: 'The payer left this invoice without paying.',
    choose: 'Choose what the payer does',
    amount: 'Amount',
    exact: 'Pay exact amount',
    over: 'Overpay',
    partial: 'Pay partially',
    fail: 'Fail',
    expire: 'Let it expire',
    abandon: 'Leave without paying',
    payments: 'Payments',
    back: 'Back to invoice',
    notFound: 'No such invoice.',
  },
  vi: {
    sim: 'Trình mô phỏng thanh toán',
    banner:
      'Trình mô phỏng thanh toán — không phải thanh toán thật. Không có tiền nào được chuyển; trang này thay cho hóa đơn NOWPayments trong kiểm thử và bản demo.',
    invoice: 'Hóa đơn',
    order: 'Đơn',
    description: 'Mô tả',
    price: 'Giá',
    pay: 'Cần trả',
    address: 'Địa chỉ',
    abandoned: 'Người trả tiền đã rời hóa đơn này mà không trả.',
    choose: 'Chọn việc người trả tiền làm',
    amount: 'Số tiền',
    exact: 'Trả đúng số tiền',
    over: 'Trả dư',
    partial: 'Trả một phần',
    fail: 'Thất bại',
    expire: 'Để hết hạn',
    abandon: 'Rời đi mà không trả',
    payments: 'Các khoản thanh toán',
    back: 'Quay lại hóa đơn',
    notFound: 'Không có hóa đơn này.',
  },
};

const STYLE = `:root{color-scheme:light dark;--page:#f6f7f9;--surface:#fff;--subtle:#f1f3f6;--line:#e3e6eb;--fg:#1c2230;
--muted:#5f6b7d;--accent:#4f46e5;--warn:#a16207;--warn-soft:#fdf5dc}
@media (prefers-color-scheme:dark){:root{--page:#0f131a;--surface:#171c25;--subtle:#1e2430;--line:#2a3140;--fg:#e6e9ef;
--muted:#9aa4b5;--accent:#5a54ec;--warn:#facc15;--warn-soft:#33290b}}
*{box-sizing:border-box}
body{margin:0;background:var(--page);color:var(--fg);font:14px/1.5 Inter,ui-sans-serif,system-ui,-apple-system,"Segoe UI",sans-serif}
main{max-width:42rem;margin:0 auto;padding:1.5rem 1rem}
.banner{background:var(--warn-soft);color:var(--warn);border:1px solid currentColor;padding:.65rem .9rem;border-radius:.5rem;font-weight:600}
.card{background:var(--surface);border:1px solid var(--line);border-radius:.75rem;padding:1.25rem}
h1{font-size:20px;margin:0 0 .75rem}h2{font-size:15px;margin:1.25rem 0 .5rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1rem}dt{color:var(--muted)}dd{margin:0;overflow-wrap:anywhere}
form{display:inline-flex;align-items:center;gap:.4rem;margin:.25rem .4rem .25rem 0}
button{padding:.5rem .9rem;font:inherit;font-weight:500;border-radius:.5rem;cursor:pointer;border:1px solid var(--line);background:var(--surface);color:var(--fg)}
button:hover{background:var(--subtle)}.primary{background:var(--accent);border-color:var(--accent);color:#fff}
button:focus-visible,input:focus-visible,a:focus-visible{outline:2px solid var(--accent);outline-offset:2px}
label{display:inline-flex;align-items:center;gap:.4rem;color:var(--muted)}
input{width:8rem;padding:.4rem .5rem;font:inherit;color:var(--fg);background:var(--surface);border:1px solid var(--line);border-radius:.4rem}
table{border-collapse:collapse;margin-top:.5rem}td,th{border:1px solid var(--line);padding:.25rem .5rem;text-align:left}a{color:var(--accent)}`;

function layout(lang: Language, title: string, body: string): string {
  const t = TEXTS[lang];
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>${esc(title)} · ${esc(t.sim)}</title><style>${STYLE}</style></head>
<body><main><p class="banner" role="note">${esc(t.banner)}</p><div class="card">${body}</div></main></body></html>`;
}

export function invoicePage(
  inv: Invoice,
  payments: Payment[],
  payAmount: string,
  payCurrency: string,
  address: string,
  lang: Language = 'en',
): string {
  const t = TEXTS[lang];
  const action = `/payment/?iid=${encodeURIComponent(String(inv.id))}`;
  const button = (outcome: string, label: string, withAmount = false, primary = false) =>
    `<form method="post" action="${esc(action)}"><input type="hidden" name="outcome" value="${outcome}">` +
    (withAmount
      ? `<label>${esc(t.amount)} <input name="amount" inputmode="decimal" aria-label="${esc(label)} ${esc(t.amount.toLowerCase())}"></label> `
      : '') +
    `<button type="submit"${primary ? ' class="primary"' : ''}>${esc(label)}</button></form>`;
  const rows = payments
    .map(
      (p) =>
        `<tr><td>${esc(p.id)}</td><td>${esc(p.status)}</td><td>${esc(p.actuallyPaid)} ${esc(p.payCurrency)}</td>` +
        `<td>${esc(p.parentId ?? '')}</td></tr>`,
    )
    .join('');
  return layout(
    lang,
    `${t.invoice} ${inv.id}`,
    `<h1>${esc(t.sim)}: ${esc(t.invoice.toLowerCase())} ${esc(inv.id)}</h1>
<dl><dt>${esc(t.order)}</dt><dd>${esc(inv.orderId)}</dd><dt>${esc(t.description)}</dt><dd>${esc(inv.orderDescription)}</dd>
<dt>${esc(t.price)}</dt><dd data-testid="price">${esc(inv.priceAmount)} ${esc(inv.priceCurrency.toUpperCase())}</dd>
<dt>${esc(t.pay)}</dt><dd data-testid="pay-amount">${esc(payAmount)} ${esc(payCurrency.toUpperCase())}</dd>
<dt>${esc(t.address)}</dt><dd data-testid="pay-address">${esc(address)}</dd></dl>
${inv.abandoned ? `<p>${esc(t.abandoned)}</p>` : ''}
<h2>${esc(t.choose)}</h2>
<div>${button('exact', t.exact, false, true)}${button('over', t.over, true)}</div>
<div>${button('partial', t.partial, true)}</div>
<div>${button('fail', t.fail)}${button('expire', t.expire)}${button('abandon', t.abandon)}</div>
${rows ? `<h2>${esc(t.payments)}</h2><table><thead><tr><th>payment_id</th><th>status</th><th>actually paid</th><th>parent</th></tr></thead><tbody>${rows}</tbody></table>` : ''}`,
  );
}

export function resultPage(inv: Invoice, text: string, lang: Language = 'en'): string {
  const t = TEXTS[lang];
  return layout(
    lang,
    `${t.invoice} ${inv.id}`,
    `<h1>${esc(t.sim)}</h1><p>${esc(text)}</p><p><a href="/payment/?iid=${esc(inv.id)}">${esc(t.back)} ${esc(inv.id)}</a></p>`,
  );
}

export function notFoundPage(lang: Language = 'en'): string {
  const t = TEXTS[lang];
  return layout(lang, t.notFound, `<h1>${esc(t.sim)}</h1><p>${esc(t.notFound)}</p>`);
}
