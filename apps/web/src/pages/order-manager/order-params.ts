/** The Order Manager's filters; '' means "All" (no filter). */
export interface OrderFilters {
  phoneNumber: string;
  gateway: string;
  status: string;
}

/** What the URL keeps, so a reload or Back shows the same page of the same filtered list. */
export interface OrderParams extends OrderFilters {
  /** 1-based. */
  page: number;
}

export const NO_FILTERS: OrderFilters = { phoneNumber: '', gateway: '', status: '' };

/** Reads ?page&phone&gateway&status; anything missing or malformed falls back to page 1 and no filter. */
export function readOrderParams(params: URLSearchParams): OrderParams {
  const page = Number(params.get('page'));
  return {
    page: Number.isInteger(page) && page >= 1 ? page : 1,
    phoneNumber: params.get('phone')?.trim() ?? '',
    gateway: params.get('gateway') ?? '',
    status: params.get('status') ?? '',
  };
}

const ORDER_KEYS = ['page', 'phone', 'gateway', 'status'];

/**
 * The search params for `p`, leaving out the defaults (page 1, empty filters) to keep URLs short.
 * `others`' params that are not the orders' own are kept (the Unmatched SMS list's `smsPage`).
 */
export function writeOrderParams(p: OrderParams, others?: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of others ?? []) if (!ORDER_KEYS.includes(k)) out.append(k, v);
  if (p.page > 1) out.set('page', String(p.page));
  const phone = p.phoneNumber.trim();
  if (phone) out.set('phone', phone);
  if (p.gateway) out.set('gateway', p.gateway);
  if (p.status) out.set('status', p.status);
  return out;
}

export function hasFilters(f: OrderFilters): boolean {
  return f.phoneNumber.trim() !== '' || f.gateway !== '' || f.status !== '';
}

/** Select options: the server's list, plus the current value when the URL names one the list lacks. */
export function optionsWith(list: readonly string[], current: string): string[] {
  return current && !list.includes(current) ? [...list, current] : [...list];
}
