import { type MassSendData, parseRecipients, recipientsOverLimit, validateMassSend } from '@simdock/contract';
import { useQuery } from '@tanstack/react-query';
import { ShieldAlert } from 'lucide-react';
import { type FormEvent, useDeferredValue, useEffect, useId, useMemo, useState } from 'react';
import { Controller, type Resolver, useForm, useWatch } from 'react-hook-form';
import { ApiError } from '../../api/client.ts';
import { Button, Card, Notice, PageHeader, QueryState } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { serverText } from '../../lib/errors.ts';
import { formatMoney, formatNumber } from '../../lib/format.ts';
import { fieldErrorText } from '../../lib/forms.ts';
import { useSession } from '../../session/session.tsx';
import { fetchLatestCampaign, useSendMassSms, useSettings } from './api.ts';
import { CampaignProgressCard } from './CampaignProgressCard.tsx';
import { ContentInput } from './ContentInput.tsx';
import { RecipientsInput } from './RecipientsInput.tsx';
import { RefusedCountries, SendCost, TopUpLink } from './SendCost.tsx';
import { costPreview, isFree, refusedDestinations } from './send-cost.ts';

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
 * uploaded) and message lines (typed or uploaded), what the send costs against the balance, Start Mass
 * Send. The contract's rules run before anything is sent (the server runs them again); after a
 * successful send both text areas clear and 'Send successful!' shows with what was queued and charged.
 * Every message under the button belongs to the attempt that caused it: a new attempt clears them.
 */
export function SmsSendingPage() {
  const { t, tn } = useI18n();
  const session = useSession();
  const settings = useSettings();
  const send = useSendMassSms();
  const [sent, setSent] = useState<MassSendData | null>(null);
  // Bumped by a successful send: the inputs start afresh (their file notices were about the sent list).
  const [round, setRound] = useState(0);
  const [campaignId, setCampaignId] = useState<string | null>(null);
  const shortId = useId();
  const noValidId = useId();
  const refusedId = useId();
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

  // Counts, the limit and the cost follow the text; deferred so a 100,000-line paste stays responsive.
  const number = useDeferredValue(useWatch({ control, name: 'number' }));
  const mess = useDeferredValue(useWatch({ control, name: 'mess' }));
  const parsed = useMemo(() => parseRecipients(number), [number]);
  const over = recipientsOverLimit(parsed.valid.length, max);
  // Lines typed but not one valid number: nothing to send or price.
  const noValid = parsed.valid.length === 0 && parsed.invalid.length > 0;
  const prices = settings.data;
  const free = prices !== undefined && isFree(prices);
  const balance = session.user?.balance;
  const preview = useMemo(
    () => (prices && !free ? costPreview(parsed.valid, mess, prices, balance) : undefined),
    [parsed, mess, prices, free, balance],
  );
  // Recipients in countries not enabled: the server would refuse the send, so Start waits.
  const refused = useMemo(() => (prices ? refusedDestinations(parsed.valid, prices) : []), [parsed, prices]);

  const submit = handleSubmit((v) => {
    const checked = validateMassSend(v, max);
    if (!checked.ok) return;
    send.mutate(
      { number: checked.recipients.join('\n'), mess: checked.messages.join('\n') },
      {
        onSuccess: (res) => {
          reset(EMPTY);
          setRound((r) => r + 1);
          setSent(res.data ?? null);
          if (res.data) setCampaignId(res.data.campaignId);
          // The top bar's balance: the charge changed it.
          void session.refresh();
        },
        onError: (err) => {
          if (err instanceof ApiError && err.status === 402) void session.refresh();
        },
      },
    );
  });
  // A new attempt starts clean: the last result (success or failure) goes before the rules run again.
  const start = (e: FormEvent<HTMLFormElement>) => {
    setSent(null);
    send.reset();
    void submit(e);
  };

  // The server's words when it gave some (in the user's language as far as the catalogue goes).
  const failure = (send.error instanceof ApiError && serverText(send.error)) || t('messaging.sendError');
  const tooPoor = send.error instanceof ApiError && send.error.status === 402;

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
                  key={round}
                  value={field.value}
                  parsed={parsed}
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
                  key={round}
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
            {prices && !off ? (
              <SendCost
                preview={preview}
                free={free}
                pricePerSegment={prices.smsPricePerSegment}
                shortId={shortId}
              />
            ) : null}
            <RefusedCountries refused={refused} id={refusedId} />
            {sent ? (
              <Notice tone="success" title={t('messaging.sendSuccess')} onDismiss={() => setSent(null)}>
                {[
                  tn('sending.sentQueued', sent.queued),
                  sent.duplicatesRemoved > 0 ? tn('sending.sentDuplicates', sent.duplicatesRemoved) : null,
                  sent.skippedOptOut > 0 ? tn('sending.sentOptOut', sent.skippedOptOut) : null,
                ]
                  .filter(Boolean)
                  .join(' ')}{' '}
                {t('sending.charged', {
                  cost: formatMoney(sent.cost, { decimals: 4 }),
                  balance: formatMoney(sent.balance, { decimals: 4 }),
                })}
              </Notice>
            ) : null}
            {send.isError ? (
              <Notice tone="error">
                {failure}
                {tooPoor ? (
                  <>
                    {' '}
                    <TopUpLink />
                  </>
                ) : null}
              </Notice>
            ) : null}
            <div className="flex flex-wrap gap-2">
              <Button
                type="submit"
                variant="primary"
                aria-describedby={
                  refused.length > 0 ? refusedId : preview?.short ? shortId : noValid ? noValidId : undefined
                }
                disabled={
                  off ||
                  settings.isPending ||
                  over > 0 ||
                  preview?.short === true ||
                  noValid ||
                  refused.length > 0
                }
                busy={send.isPending}
                busyLabel={t('sending.starting')}
              >
                {t('sending.start')}
              </Button>
              {noValid ? (
                // Why Start waits: numbers were given, none of them valid (the cost counts valid ones only).
                <p id={noValidId} className="self-center text-xs text-muted">
                  {t('sending.noValidNumbers')}
                </p>
              ) : null}
            </div>
          </div>
        </form>
      </div>
    </>
  );
}
