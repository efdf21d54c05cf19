import { zodResolver } from '@hookform/resolvers/zod';
import {
  AddWebhookBody,
  SetWebhookEventsBody,
  WEBHOOK_EVENTS,
  WEBHOOK_MAX,
  WEBHOOK_URL_MAX,
  type Webhook,
  type WebhookDelivery,
  type WebhookEventName,
} from '@simdock/contract';
import { ListChecks, RotateCw, Send, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { type UseFormRegisterReturn, useForm } from 'react-hook-form';
import type { z } from 'zod';
import { errorMessage } from '../../api/client.ts';
import {
  Button,
  Card,
  type Column,
  CopyButton,
  DataTable,
  EmptyState,
  ErrorState,
  FormDialog,
  FormField,
  Input,
  notify,
  SkeletonLines,
  StatusBadge,
} from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { fieldErrorText } from '../../lib/forms.ts';
import {
  useAddWebhookMutation,
  useDeleteWebhookMutation,
  useDeliveriesQuery,
  useRedeliverMutation,
  useTestWebhookMutation,
  useWebhookEventsMutation,
  useWebhooksQuery,
} from './api.ts';
import { eventsSummary } from './key-form.ts';

/** The contract's rule for a URL's events (at least one). */
const EventsOnly = SetWebhookEventsBody.pick({ events: true });

/** One checkbox per webhook event, registered under `events`. */
function EventChoices({
  register,
  error,
  legend,
}: {
  register: UseFormRegisterReturn<'events'>;
  error?: string;
  legend: string;
}) {
  const { t } = useI18n();
  return (
    <fieldset>
      <legend className="mb-1.5 text-[13px] font-medium text-fg">{legend}</legend>
      <div className="grid grid-cols-1 gap-1.5 sm:grid-cols-2">
        {WEBHOOK_EVENTS.map((event) => (
          <label
            key={event}
            className="flex cursor-pointer items-center gap-2 rounded-md border border-line px-3 py-1.5 text-[13px] hover:bg-subtle/50"
          >
            <input type="checkbox" value={event} className="size-4 shrink-0 accent-accent" {...register} />
            <span className="min-w-0">
              {t(`apikey.event.${event}`)} <code className="text-xs text-muted">{event}</code>
            </span>
          </label>
        ))}
      </div>
      {error ? (
        <p role="alert" className="mt-1 text-xs font-medium text-bad">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** A URL's events in words: "All events" or the chosen ones. */
function EventsText({ events }: { events: readonly WebhookEventName[] }) {
  const { t } = useI18n();
  const chosen = eventsSummary(events);
  return <>{chosen ? chosen.map((e) => t(`apikey.event.${e}`)).join(', ') : t('apikey.hookEventsAll')}</>;
}

export function WebhooksCard() {
  const { t } = useI18n();
  const hooks = useWebhooksQuery();
  const add = useAddWebhookMutation();
  const remove = useDeleteWebhookMutation();
  const test = useTestWebhookMutation();
  const [editing, setEditing] = useState<Webhook | null>(null);
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors },
  } = useForm<z.input<typeof AddWebhookBody>, unknown, z.output<typeof AddWebhookBody>>({
    // Every event by default: a new URL hears everything until told otherwise.
    defaultValues: { url: '', events: [...WEBHOOK_EVENTS] },
    resolver: zodResolver(AddWebhookBody),
  });
  const url = watch('url');
  const list = hooks.data?.webhooks ?? [];
  const max = hooks.data?.max ?? WEBHOOK_MAX;
  const full = list.length >= max;

  const onAdd = handleSubmit((body) =>
    add.mutate(
      { url: body.url, events: body.events ?? [...WEBHOOK_EVENTS] },
      {
        onSuccess: () => {
          reset();
          notify.success(t('apikey.hookAdded'));
        },
        onError: (err) =>
          setError('url', {
            type: 'server',
            message: t('apikey.hookAddFailed', { error: errorMessage(err) }),
          }),
      },
    ),
  );
  const onDelete = (w: Webhook) =>
    remove.mutate(w.id, {
      onSuccess: () => notify.success(t('apikey.hookDeleted')),
      onError: (err) => notify.error(t('apikey.hookDeleteFailed', { error: errorMessage(err) })),
    });
  const onTest = () =>
    test.mutate(undefined, {
      onSuccess: (res) =>
        res.deliveries.every((d) => d.status === 'delivered')
          ? notify.success(res.msg)
          : notify.error(res.msg),
      onError: (err) => notify.error(t('apikey.testFailed', { error: errorMessage(err) })),
    });

  return (
    <Card
      title={t('apikey.hooksTitle')}
      description={t('apikey.hooksDescription', { max })}
      actions={
        <Button
          icon={<Send className="size-4" aria-hidden />}
          onClick={onTest}
          busy={test.isPending}
          busyLabel={t('apikey.testSending')}
          disabled={list.length === 0}
        >
          {t('apikey.testEvent')}
        </Button>
      }
    >
      <div className="flex flex-col gap-4">
        {hooks.isPending ? (
          <SkeletonLines lines={2} className="p-0" />
        ) : hooks.isError ? (
          <ErrorState title={t('apikey.hooksLoadFailed')} onRetry={() => void hooks.refetch()} />
        ) : list.length === 0 ? (
          <EmptyState compact title={t('apikey.hooksEmpty')} />
        ) : (
          <ul
            className="flex flex-col divide-y divide-line rounded-md border border-line"
            aria-label={t('apikey.hooksTitle')}
          >
            {list.map((w) => (
              <li key={w.id} className="flex flex-col gap-1.5 px-3 py-2">
                <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
                  <span className="min-w-0 flex-1 break-all font-mono text-[13px]">{w.url}</span>
                  {w.format === 'smsgate' ? (
                    <StatusBadge tone="grey">{t('apikey.hookFormatSmsgate')}</StatusBadge>
                  ) : null}
                  <span className="flex items-center gap-1">
                    <Button
                      size="sm"
                      variant="ghost"
                      icon={<ListChecks className="size-3.5" aria-hidden />}
                      aria-label={t('apikey.hookEventsEditFor', { url: w.url })}
                      onClick={() => setEditing(w)}
                    >
                      {t('apikey.hookEventsEdit')}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      icon={<Trash2 className="size-3.5" aria-hidden />}
                      aria-label={t('apikey.hookDeleteFor', { url: w.url })}
                      disabled={remove.isPending}
                      onClick={() => onDelete(w)}
                    >
                      {t('apikey.hookDelete')}
                    </Button>
                  </span>
                </div>
                <p className="text-[12px] text-muted" data-testid="webhook-events">
                  {t('apikey.hookEvents')}: <EventsText events={w.events} />
                </p>
                <span className="flex min-w-0 items-center gap-1 text-[12px] text-muted">
                  {t('apikey.hookSecret')}:{' '}
                  {w.secret === null ? (
                    <span className="text-bad">{t('apikey.hookSecretLost')}</span>
                  ) : (
                    <>
                      <code className="break-all font-mono">{w.secret}</code>
                      <CopyButton value={w.secret} />
                    </>
                  )}
                </span>
              </li>
            ))}
          </ul>
        )}
        {full ? (
          <p className="text-[13px] text-muted">{t('apikey.hookLimit', { max })}</p>
        ) : (
          <form onSubmit={onAdd} noValidate className="flex flex-col gap-3">
            <div className="flex flex-col gap-2 sm:flex-row sm:items-start">
              <FormField
                label={t('apikey.hookUrl')}
                error={fieldErrorText(t, errors.url)}
                className="sm:flex-1"
              >
                <Input
                  type="url"
                  inputMode="url"
                  maxLength={WEBHOOK_URL_MAX}
                  placeholder={t('apikey.hookUrlHint')}
                  {...register('url')}
                />
              </FormField>
              <Button
                type="submit"
                className="sm:mt-6"
                busy={add.isPending}
                busyLabel={t('apikey.hookAdding')}
                disabled={!url.trim()}
              >
                {t('apikey.hookAdd')}
              </Button>
            </div>
            <EventChoices
              legend={t('apikey.hookEventsLegend')}
              register={register('events')}
              error={errors.events ? t('apikey.hookEventsRequired') : undefined}
            />
          </form>
        )}
      </div>
      {editing ? <EventsDialog webhook={editing} onClose={() => setEditing(null)} /> : null}
    </Card>
  );
}

/** Chooses the events one URL receives. */
function EventsDialog({ webhook, onClose }: { webhook: Webhook; onClose: () => void }) {
  const { t } = useI18n();
  const save = useWebhookEventsMutation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<z.input<typeof EventsOnly>, unknown, z.output<typeof EventsOnly>>({
    defaultValues: { events: [...webhook.events] },
    resolver: zodResolver(EventsOnly),
  });
  const submit = handleSubmit((values) =>
    save.mutate(
      { id: webhook.id, events: WEBHOOK_EVENTS.filter((e) => values.events.includes(e)) },
      {
        onSuccess: () => {
          onClose();
          notify.success(t('apikey.hookEventsSaved'));
        },
      },
    ),
  );
  return (
    <FormDialog
      title={t('apikey.hookEventsTitle')}
      intro={t('apikey.hookEventsIntro', { url: webhook.url })}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t('apikey.hookEventsSave')}
      pending={save.isPending}
      error={save.isError ? t('apikey.hookEventsFailed', { error: errorMessage(save.error) }) : undefined}
    >
      <EventChoices
        legend={t('apikey.hookEventsLegend')}
        register={register('events')}
        error={errors.events ? t('apikey.hookEventsRequired') : undefined}
      />
    </FormDialog>
  );
}

const DELIVERY_TONE = { pending: 'yellow', delivered: 'green', failed: 'red' } as const;

export function DeliveryLog() {
  const { t } = useI18n();
  const log = useDeliveriesQuery();
  const redeliver = useRedeliverMutation();
  const [sending, setSending] = useState<string | null>(null);
  const onRedeliver = (d: WebhookDelivery) => {
    setSending(d.id);
    redeliver.mutate(d.id, {
      onSuccess: (res) =>
        res.deliveries.every((x) => x.status === 'delivered')
          ? notify.success(res.msg)
          : notify.error(res.msg),
      onError: (err) => notify.error(t('apikey.redeliverFailed', { error: errorMessage(err) })),
      onSettled: () => setSending(null),
    });
  };
  const columns: Column<WebhookDelivery>[] = [
    {
      key: 'time',
      header: t('apikey.colTime'),
      className: 'whitespace-nowrap',
      cellClassName: 'tabular text-muted',
      cell: (d) => formatDateTime(d.createdAt),
    },
    {
      key: 'url',
      header: t('apikey.colUrl'),
      cellClassName: 'font-mono text-xs break-all',
      cell: (d) => d.url,
    },
    { key: 'event', header: t('apikey.colEvent'), cell: (d) => d.event },
    {
      key: 'eventId',
      header: t('apikey.colEventId'),
      cellClassName: 'font-mono text-xs break-all',
      cell: (d) => d.eventId,
    },
    {
      key: 'status',
      header: t('apikey.colStatus'),
      cell: (d) => <StatusBadge tone={DELIVERY_TONE[d.status]}>{t(`apikey.status.${d.status}`)}</StatusBadge>,
    },
    {
      key: 'tries',
      header: t('apikey.colTries'),
      align: 'right',
      cellClassName: 'tabular',
      cell: (d) => d.attempts,
    },
    {
      key: 'result',
      header: t('apikey.colResult'),
      cellClassName: 'text-muted',
      cell: (d) => (
        <span>
          {d.lastStatus ? `HTTP ${d.lastStatus}` : (d.lastError ?? '—')}
          {d.status === 'pending' && d.nextAttemptAt
            ? ` · ${t('apikey.resultNext', { time: formatDateTime(d.nextAttemptAt) })}`
            : ''}
        </span>
      ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">{t('apikey.colActions')}</span>,
      cardLabel: false,
      align: 'right',
      cell: (d) => (
        <Button
          size="sm"
          variant="ghost"
          icon={<RotateCw className="size-3.5" aria-hidden />}
          aria-label={t('apikey.redeliverFor', { id: d.id })}
          busy={sending === d.id}
          busyLabel={t('apikey.redelivering')}
          disabled={redeliver.isPending}
          onClick={() => onRedeliver(d)}
        >
          {t('apikey.redeliver')}
        </Button>
      ),
    },
  ];
  return (
    <Card title={t('apikey.logTitle')} flush>
      <DataTable
        caption={t('apikey.logCaption')}
        columns={columns}
        rows={log.data?.deliveries}
        rowKey={(d) => d.id}
        loading={log.isPending}
        error={log.isError ? errorMessage(log.error) : undefined}
        emptyText={t('apikey.logEmpty')}
        phoneCards
      />
    </Card>
  );
}
