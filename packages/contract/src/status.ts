export type Tone = 'green' | 'yellow' | 'grey' | 'red';

/** SUCCESS green, WAIT_CODE yellow, CANCEL grey, anything else red. */
export function orderStatusTone(status: string): Tone {
  switch (status) {
    case 'SUCCESS':
      return 'green';
    case 'WAIT_CODE':
      return 'yellow';
    case 'CANCEL':
      return 'grey';
    default:
      return 'red';
  }
}

/** User view: PENDING yellow, PAID or DONE green, FAILED red, others grey. */
export function userPaymentTone(status: string): Tone {
  if (status === 'PENDING') return 'yellow';
  if (status === 'PAID' || status === 'DONE') return 'green';
  if (status === 'FAILED') return 'red';
  return 'grey';
}

/** Admin view: DONE green, PENDING yellow, cancelled by its owner grey (as the owner sees it), others red. */
export function adminPaymentTone(status: string): Tone {
  if (status === 'DONE') return 'green';
  if (status === 'PENDING') return 'yellow';
  if (status === 'CANCELLED') return 'grey';
  return 'red';
}

export function onlineTone(status: 'Online' | 'Offline'): Tone {
  return status === 'Online' ? 'green' : 'grey';
}

/** Device statistics: green at 50% or more (docs/product.md#screens-and-routes). */
export function deviceSuccessTone(success: number, used: number): Tone {
  return used > 0 && success / used >= 0.5 ? 'green' : 'red';
}

/**
 * Order Manager per-gateway: green above 60% (docs/product.md#screens-and-routes). `rate` is a percentage.
 */
export function gatewaySuccessTone(ratePercent: number): Tone {
  return ratePercent > 60 ? 'green' : 'red';
}

export function percent(part: number, whole: number): number {
  return whole > 0 ? Math.round((part / whole) * 1000) / 10 : 0;
}
