import type { Gateway } from '@simdock/contract';
import { CopyableText } from '../../components/CopyButton.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { GOIP_MODE_TEXT, KIND_ICON, KIND_TEXT, MODE_TEXT, phoneMode } from './kinds.ts';

/**
 * The device kind at a glance: an Ejoin box, a phone (with its mode) or a GoIP box (with "web" when
 * SimDock reaches it through its web pages). Neutral, unlike the status badges:
 * it says what the device is, not how it is doing.
 */
export function KindBadge({ gateway: g, className }: { gateway: Gateway; className?: string }) {
  const { t } = useI18n();
  const mode = phoneMode(g.mode);
  const Icon = KIND_ICON[g.kind];
  return (
    <span
      data-testid="gateway-kind"
      title={t(KIND_TEXT[g.kind].long)}
      className={cx(
        'inline-flex w-fit items-center gap-1 rounded-md border border-line bg-subtle px-1.5 py-px text-[11px] font-medium whitespace-nowrap text-muted',
        className,
      )}
    >
      <Icon className="size-3.5" aria-hidden />
      {t(KIND_TEXT[g.kind].short)}
      {mode ? ` · ${t(MODE_TEXT[mode].label)}` : null}
      {g.kind === 'goip' && g.mode === 'web' ? ` · ${t(GOIP_MODE_TEXT.web.short)}` : null}
    </span>
  );
}

/** `demo00…phone1`: the first and last 6 characters of an id over 14. */
export function shortDeviceId(id: string): string {
  return id.length > 14 ? `${id.slice(0, 6)}…${id.slice(-6)}` : id;
}

/** A phone's model and SMSGate id, as far as a Scan has learned them. */
export function PhoneIdentity({ gateway: g }: { gateway: Gateway }) {
  const { t } = useI18n();
  return (
    <span className="flex min-w-0 flex-col">
      {g.model ? <span className="text-xs text-fg">{g.model}</span> : null}
      {g.deviceId ? (
        // SMSGate's ids are 21–32 characters without a break: shortened in the middle (never broken
        // mid-word), the whole id in the tooltip and on the copy button.
        <span title={g.deviceId} className="text-xs">
          <CopyableText value={g.deviceId} display={shortDeviceId(g.deviceId)} testId="phone-device-id" />
        </span>
      ) : (
        <span className="text-xs text-muted italic">{t('gateways.deviceUnknown')}</span>
      )}
    </span>
  );
}
