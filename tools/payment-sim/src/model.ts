// State of the simulated merchant account: invoices and the payments made against them.
import { NOWPAYMENTS_STATUSES, type NowPaymentsStatus } from '@simdock/contract';

/** The provider's payment statuses, the same list the server maps (packages/contract). */
export const NP_STATUSES = NOWPAYMENTS_STATUSES;
export type NpStatus = NowPaymentsStatus;

export interface Invoice {
  id: number;
  tokenId: string;
  orderId: string | null;
  orderDescription: string | null;
  priceAmount: string;
  priceCurrency: string;
  payCurrency: string | null;
  ipnCallbackUrl: string | null;
  successUrl: string | null;
  cancelUrl: string | null;
  partiallyPaidUrl: string | null;
  isFixedRate: boolean;
  isFeePaidByUser: boolean;
  createdAt: string;
  updatedAt: string;
  /** Set when the tester left the page without paying. */
  abandoned: boolean;
  paymentIds: number[];
}

export interface Payment {
  id: number;
  parentId: number | null;
  invoiceId: number | null;
  status: NpStatus;
  payAddress: string;
  priceAmount: string;
  priceCurrency: string;
  payAmount: string;
  /** What the payer sends once the payment is seen on chain. */
  plannedPaid: string;
  actuallyPaid: string;
  payCurrency: string;
  orderId: string | null;
  orderDescription: string | null;
  purchaseId: string;
  ipnCallbackUrl: string | null;
  originType: 'REPEATED' | null;
  createdAt: string;
  /** ms epoch, as the IPN's `updated_at`. */
  updatedAtMs: number;
}
