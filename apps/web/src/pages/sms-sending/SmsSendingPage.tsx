import { CampaignResponse, type MassSendData, validateMassSend } from '@simdock/contract';
import { useQuery } from '@tanstack/react-query';
import { ShieldAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { ApiError, apiPost } from '../../api/client.ts';
import { Button, Card, Notice, PageHeader, QueryState } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatNumber } from '../../lib/format.ts';
import { useSendMassSms, useSettings } from './api.ts';
import { CampaignProgressCard } from './CampaignProgressCard.tsx';
import { ContentInput } from './ContentInput.tsx';
import { messagingText } from './messaging-text.ts';
import { RecipientsInput } from './RecipientsInput.tsx';

/**
 * /SMS_SendingPage (docs/product.md): the usage policy, 'SMS Sending (Max: N)', recipients (typed or
 * uploaded) and message lines (typed or uploaded), Start Mass Send. The contract's rules run before
 * anything is sent (the server runs them again); after a successful send both text areas clear and
 * 'Send successful!' shows with what was queued.
 */
export function SmsSendingPage() {
  const { t } = useI18n();
  const settings = useSettings();
  const send = useSendMassSms();
  const [numbers, setNumbers] = useState('');
  const [content, setContent] = useState('');
  const [errors, setErrors] = useState<{ number?: string; mess?: string }>({});
  const [sent, setSent] = useState<MassSendData | null>(null);
  const [campaignId, setCampaignId] = useState<string | null>(null);
  // Coming back to the page while a send still runs: show its progress again.
  const latest = useQuery({
    queryKey: ['campaign', 'latest'],
    queryFn: ({ signal }) => apiPost('/api/MassOutreach/campaign', {}, CampaignResponse, { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(() => {
    const c = latest.data?.data;
    if (c && !c.finished) setCampaignId((id) => id ?? c.campaignId);
  }, [latest.data]);
  const max = settings.data?.maxBatchSendSms ?? 0;
  const daily = settings.data?.maxMsgPerDay ?? 0;
  const off = settings.data !== undefined && (max === 0 || daily === 0);

  const start = () => {
    const checked = validateMassSend({ number: numbers, mess: content }, max);
    if (!checked.ok) {
      setErrors({ [checked.field]: messagingText(t, checked.error) });
      return;
    }
    setErrors({});
    setSent(null);
    send.mutate(
      { number: checked.recipients.join('\n'), mess: checked.messages.join('\n') },
      {
        onSuccess: (res) => {
          setNumbers('');
          setContent('');
          setSent(res.data ?? null);
          if (res.data) setCampaignId(res.data.campaignId);
        },
      },
    );
  };

  const failure =
    send.error instanceof ApiError && send.error.serverMessage
      ? send.error.serverMessage
      : t('messaging.sendError');

  return (
    <>
      <PageHeader title={t('sending.title', { max: formatNumber(max) })} subtitle={t('sending.subtitle')} />
      <div className="flex flex-col gap-5">
        <Notice tone="info" title={t('sending.policyTitle')}>
          {t('sending.policy')}
        </Notice>
        <QueryState query={settings} errorTitle={t('settings.loadFailed')} compact>
          {(s) =>
            off ? (
              <Notice tone="error" title={t('sending.offTitle')}>
                {s.maxBatchSendSms === 0 ? t('sending.offBatch') : t('sending.offDaily')}
              </Notice>
            ) : (
              <>
                <p className="flex items-center gap-2 text-sm text-muted">
                  <ShieldAlert className="size-4" aria-hidden />
                  {t('sending.limits', {
                    batch: formatNumber(s.maxBatchSendSms),
                    daily: formatNumber(s.maxMsgPerDay),
                  })}
                </p>
                {s.noFreeSim ? (
                  <Notice tone="info" title={t('sending.waitingTitle')}>
                    {t('sending.noFreeSim')}
                  </Notice>
                ) : null}
              </>
            )
          }
        </QueryState>
        {campaignId ? <CampaignProgressCard campaignId={campaignId} /> : null}
        <form
          noValidate
          aria-label={t('nav.smsSending')}
          className="grid grid-cols-1 gap-5 lg:grid-cols-2"
          onSubmit={(e) => {
            e.preventDefault();
            start();
          }}
        >
          <Card title={t('sending.recipients')}>
            <RecipientsInput
              value={numbers}
              onChange={(v) => {
                setNumbers(v);
                setErrors((x) => ({ ...x, number: undefined }));
              }}
              limit={max}
              error={errors.number}
              disabled={off || send.isPending}
            />
          </Card>
          <Card title={t('sending.content')}>
            <ContentInput
              value={content}
              onChange={(v) => {
                setContent(v);
                setErrors((x) => ({ ...x, mess: undefined }));
              }}
              error={errors.mess}
              disabled={off || send.isPending}
            />
          </Card>
          <div className="flex flex-col gap-3 lg:col-span-2">
            {sent ? (
              <Notice tone="success" title={t('messaging.sendSuccess')} onDismiss={() => setSent(null)}>
                {t('sending.sentDetail', {
                  queued: formatNumber(sent.queued),
                  duplicates: formatNumber(sent.duplicatesRemoved),
                  optOut: formatNumber(sent.skippedOptOut),
                })}
              </Notice>
            ) : null}
            {send.isError ? <Notice tone="error">{failure}</Notice> : null}
            <div className="flex flex-wrap gap-2">
              <Button
                type="submit"
                variant="primary"
                disabled={off || settings.isPending}
                busy={send.isPending}
                busyLabel={t('sending.starting')}
              >
                {t('sending.start')}
              </Button>
            </div>
          </div>
        </form>
      </div>
    </>
  );
}
