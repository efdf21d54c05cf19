import { type MassSendData, validateMassSend } from '@simdock/contract';
import { useQuery } from '@tanstack/react-query';
import { ShieldAlert } from 'lucide-react';
import { useEffect, useState } from 'react';
import { Controller, type Resolver, useForm } from 'react-hook-form';
import { ApiError } from '../../api/client.ts';
import { Button, Card, Notice, PageHeader, QueryState } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { serverText } from '../../lib/errors.ts';
import { formatNumber } from '../../lib/format.ts';
import { fieldErrorText } from '../../lib/forms.ts';
import { fetchLatestCampaign, useSendMassSms, useSettings } from './api.ts';
import { CampaignProgressCard } from './CampaignProgressCard.tsx';
import { ContentInput } from './ContentInput.tsx';
import { RecipientsInput } from './RecipientsInput.tsx';

interface Values {
  /** Recipients, one per line. */
  number: string;
  /** Message lines. */
  mess: string;
}
const EMPTY: Values = { number: '', mess: '' };

/**
 * The contract's mass-send rules for the current limit: the first broken one goes under its field, as
 * the contract's text (shown in the user's language with its params, lib/forms.ts `fieldErrorText`).
 */
function massSendResolver(max: number): Resolver<Values> {
  return async (values) => {
    const checked = validateMassSend(values, max);
    if (checked.ok) return { values, errors: {} };
    return { values: {}, errors: { [checked.field]: { type: 'messaging', message: checked.error.text } } };
  };
}

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
  const [sent, setSent] = useState<MassSendData | null>(null);
  const [campaignId, setCampaignId] = useState<string | null>(null);
  // Coming back to the page while a send still runs: show its progress again.
  const latest = useQuery({
    queryKey: ['campaign', 'latest'],
    queryFn: ({ signal }) => fetchLatestCampaign(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
  useEffect(() => {
    const c = latest.data?.data;
    if (c && !c.finished) setCampaignId((id) => id ?? c.campaignId);
  }, [latest.data]);
  const max = settings.data?.maxBatchSendSms ?? 0;
  const daily = settings.data?.maxMsgPerDay ?? 0;
  const off = settings.data !== undefined && (max === 0 || daily === 0);

  const { control, handleSubmit, reset, clearErrors } = useForm<Values>({
    defaultValues: EMPTY,
    resolver: massSendResolver(max),
    // An error goes as soon as its field changes (the rules run again on the next send).
    reValidateMode: 'onSubmit',
  });

  const start = handleSubmit((v) => {
    const checked = validateMassSend(v, max);
    if (!checked.ok) return;
    setSent(null);
    send.mutate(
      { number: checked.recipients.join('\n'), mess: checked.messages.join('\n') },
      {
        onSuccess: (res) => {
          reset(EMPTY);
          setSent(res.data ?? null);
          if (res.data) setCampaignId(res.data.campaignId);
        },
      },
    );
  });

  // The server's words when it gave some (in the user's language as far as the catalogue goes).
  const failure = (send.error instanceof ApiError && serverText(send.error)) || t('messaging.sendError');

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
          onSubmit={start}
        >
          <Card title={t('sending.recipients')}>
            <Controller
              control={control}
              name="number"
              render={({ field, fieldState }) => (
                <RecipientsInput
                  value={field.value}
                  onChange={(v) => {
                    field.onChange(v);
                    clearErrors('number');
                  }}
                  limit={max}
                  error={fieldErrorText(t, fieldState.error)}
                  disabled={off || send.isPending}
                />
              )}
            />
          </Card>
          <Card title={t('sending.content')}>
            <Controller
              control={control}
              name="mess"
              render={({ field, fieldState }) => (
                <ContentInput
                  value={field.value}
                  onChange={(v) => {
                    field.onChange(v);
                    clearErrors('mess');
                  }}
                  error={fieldErrorText(t, fieldState.error)}
                  disabled={off || send.isPending}
                />
              )}
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
