import type { MessagingMessage } from '@simdock/contract';
import type { TFunction } from '../../i18n/index.tsx';

/** A contract messaging rule message in the user's language (its key and params). */
export function messagingText(t: TFunction, m: MessagingMessage): string {
  return t(`messaging.${m.key}`, m.params);
}
