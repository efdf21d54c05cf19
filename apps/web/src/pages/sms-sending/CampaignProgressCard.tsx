import type { CampaignProgress } from '@simdock/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { campaignQuery } from '../../api/campaigns.ts';
import { ApiError } from '../../api/client.ts';
import { Button, Card, Notice, notify } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatMoney, formatNumber } from '../../lib/format.ts';
import { cancelCampaign } from './api.ts';

/**
 * The progress of the campaign just sent: queued, sent, delivered, failed (and cancelled), a bar,
 * and Cancel, which stops the messages not yet handed to a device. Live over the event stream;
 * polled every 3 s while it runs as a fallback.
 */
export function CampaignProgressCard({ campaignId }: { campaignId: string }) {
  const { t, tn } = useI18n();
  const qc = useQueryClient();
  const query = useQuery(campaignQuery(campaignId));
  const cancel = useMutation({
    mutationKey: ['campaign', 'cancel'],
    mutationFn: () => cancelCampaign(campaignId),
    onSuccess: (res) => {
      notify.success(tn('sending.cancelled', res.data.cancelled));
      void qc.invalidateQueries({ queryKey: campaignQuery(campaignId).queryKey });
    },
    onError: (err) =>
      notify.error(t('sending.cancelFailed', { error: err instanceof ApiError ? err.message : String(err) })),
  });
  const p: CampaignProgress | null | undefined = query.data?.data;
  if (!p) return null;
  const done = p.delivered + p.failed + p.cancelled;
  const pct = p.total > 0 ? Math.round((done / p.total) * 100) : 100;
  const tiles: [string, number, string][] = [
    [t('sending.queued'), p.queued, 'text-muted'],
    [t('sending.sent'), p.sent, 'text-info'],
    [t('sending.delivered'), p.delivered, 'text-ok'],
    [t('sending.failed'), p.failed, 'text-bad'],
    [t('sending.cancelledCount'), p.cancelled, 'text-muted'],
  ];
  return (
    <Card
      title={t('sending.progressTitle')}
      actions={
        p.finished ? null : (
          <Button
            size="sm"
            variant="danger"
            onClick={() => cancel.mutate()}
            busy={cancel.isPending}
            busyLabel={t('sending.cancelling')}
          >
            {t('sending.cancel')}
          </Button>
        )
      }
    >
      <div className="flex flex-col gap-3">
        <div
          role="progressbar"
          aria-label={t('sending.progressLabel')}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={pct}
          aria-valuetext={t('sending.progressOf', { done: formatNumber(done), total: formatNumber(p.total) })}
          className="h-2.5 w-full overflow-hidden rounded-full bg-subtle"
        >
          <div className="h-full rounded-full bg-accent transition-[width]" style={{ width: `${pct}%` }} />
        </div>
        <p className="text-sm text-muted" aria-live="polite">
          {t('sending.progressOf', { done: formatNumber(done), total: formatNumber(p.total) })}
        </p>
        <dl className="grid grid-cols-2 gap-3 sm:grid-cols-5">
          {tiles.map(([label, value, tone]) => (
            <div key={label} className="rounded-md border border-line px-3 py-2">
              <dt className="text-xs text-muted">{label}</dt>
              <dd className={`text-lg font-semibold tabular ${tone}`}>{formatNumber(value)}</dd>
            </div>
          ))}
        </dl>
        {p.cost > 0 ? (
          <p className="text-sm text-muted tabular" data-testid="campaign-money">
            {t('sending.progressMoney', {
              cost: formatMoney(p.cost, { decimals: 4 }),
              refunded: formatMoney(p.refunded, { decimals: 4 }),
              net: formatMoney(p.netCost, { decimals: 4 }),
            })}
          </p>
        ) : null}
        {p.waitingForSim ? <Notice tone="info">{t('sending.waitingForSim')}</Notice> : null}
        {query.isError ? <Notice tone="error">{String(query.error)}</Notice> : null}
      </div>
    </Card>
  );
}
