import type { LedgerKind, LedgerReference } from '@simdock/contract';
import type { MessageKey, TFunction } from '../../i18n/index.tsx';

/** The kind of a money movement in plain words: Top-up, Rental, Messages refund… */
export const ledgerKindKey = (kind: LedgerKind): MessageKey => `balance.kind.${kind}`;

/** Credits read green, charges red (the sign says it too). */
export const amountTone = (amount: number): 'credit' | 'debit' | 'none' =>
  amount > 0 ? 'credit' : amount < 0 ? 'debit' : 'none';

/** What an entry was for, in words: 'Order #42', 'Campaign #7, messages #101–#140'; '' when nothing to say. */
export function referenceText(ref: LedgerReference | null, t: TFunction): string {
  if (!ref) return '';
  if (ref.type === 'order') return t('balance.ref.order', { id: ref.orderId });
  if (ref.type === 'campaign') {
    const m = ref.messages;
    if (!m) return t('balance.ref.campaign', { id: ref.campaignId });
    return m.first === m.last
      ? t('balance.ref.campaignMessage', { id: ref.campaignId, first: m.first })
      : t('balance.ref.campaignMessages', { id: ref.campaignId, first: m.first, last: m.last });
  }
  const m = ref.messages;
  return m.first === m.last
    ? t('balance.ref.message', { first: m.first })
    : t('balance.ref.messages', { first: m.first, last: m.last });
}
