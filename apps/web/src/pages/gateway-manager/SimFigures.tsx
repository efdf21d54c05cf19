import type { Sim } from '@simdock/contract';
import { RelativeTime } from '../../components/RelativeTime.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { lockKindText, lockLeftText, lockReasonText } from './sim-text.ts';

// A SIM row's figures in the SIM panel (sim-columns.tsx): its lock and its health.

/** "Locked" with why and for how long: minutes left, until unlocked, or until the device recovers. */
export function LockBadge({ sim, now }: { sim: Sim; now: number }) {
  const { t } = useI18n();
  const { lock } = sim;
  return (
    <span className="flex max-w-32 flex-col items-start gap-0.5" data-testid="sim-lock">
      {/* It may wrap: the State column must not push the SIM table past a 1280 px screen. */}
      <StatusBadge
        tone="red"
        className="!whitespace-normal"
        title={lock.until ? formatDateTime(lock.until) : undefined}
      >
        {t('gateways.locked')} · {lockKindText(t, lock)}
      </StatusBadge>
      {lock.reason ? <span className="text-xs text-fg">{lockReasonText(t, lock.reason)}</span> : null}
      <span className="text-xs text-muted">{lockLeftText(t, lock, now)}</span>
    </span>
  );
}

/** The SIM's figures: sent today and this month (UTC), failures, received, rentals, last success. */
export function HealthFigures({ sim }: { sim: Sim }) {
  const { t } = useI18n();
  const h = sim.health;
  return (
    <span className="flex min-w-40 flex-col items-start gap-0.5 text-xs tabular" data-testid="sim-health">
      <span>{t('gateways.healthSent', { today: h.sentToday, month: h.sentThisMonth })}</span>
      <span className={h.consecutiveFailures > 0 ? 'text-bad' : undefined}>
        {t('gateways.healthFailed', { failed: h.failed, inRow: h.consecutiveFailures })}
      </span>
      <span>{t('gateways.healthReceived', { received: h.received, rentals: h.rentalsToday })}</span>
      {h.lastSuccess ? (
        <RelativeTime value={h.lastSuccess} className="text-muted">
          {(time) => t('gateways.healthLastSuccess', { time })}
        </RelativeTime>
      ) : (
        <span className="text-muted">{t('gateways.healthNever')}</span>
      )}
      {h.atCap ? (
        <StatusBadge tone="yellow">
          {h.atCap === 'day' ? t('gateways.atCapDay') : t('gateways.atCapMonth')}
        </StatusBadge>
      ) : null}
    </span>
  );
}
