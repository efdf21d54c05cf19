import { zodResolver } from '@hookform/resolvers/zod';
import {
  AddWebhookBody,
  WEBHOOK_MAX,
  WEBHOOK_URL_MAX,
  type Webhook,
  type WebhookDelivery,
} from '@simdock/contract';
import { ExternalLink, KeyRound, Send, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { errorMessage } from '../../api/client.ts';
import {
  Button,
  buttonClass,
  Card,
  type Column,
  ConfirmDialog,
  CopyButton,
  DataTable,
  EmptyState,
  ErrorState,
  FormField,
  Input,
  Notice,
  notify,
  PageHeader,
  SkeletonLines,
  StatusBadge,
} from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { fieldErrorText } from '../../lib/forms.ts';
import {
  useAddWebhookMutation,
  useApiKeyQuery,
  useDeleteKeyMutation,
  useDeleteWebhookMutation,
  useDeliveriesQuery,
  useResetKeyMutation,
  useTestWebhookMutation,
  useWebhooksQuery,
} from './api.ts';

type Message = { tone: 'success' | 'error'; text: string } | null;

/**
 * /apikey (docs/product.md): the key or 'No Apikey', New API Key, Delete API Key after 'Delete apikey ?'
 * (both 'Processing...' while busy; Delete disabled without a key), a link to the API docs in a new
 * tab, how to call the API, and the webhooks with their "send test event" and delivery log.
 */
export function ApiKeyPage() {
  const { t } = useI18n();
  return (
    <>
      <PageHeader
        title={t('apikey.title')}
        subtitle={t('apikey.subtitle')}
        actions={
          <a
            href="/swagger"
            target="_blank"
            rel="noopener noreferrer"
            className={buttonClass('secondary')}
            aria-label={`${t('apikey.docs')} (${t('apikey.docsHint')})`}
          >
            <ExternalLink className="size-4" aria-hidden />
            {t('apikey.docs')}
          </a>
        }
      />
      <div className="flex flex-col gap-5">
        <KeyCard />
        <WebhooksCard />
        <DeliveryLog />
      </div>
    </>
  );
}

function KeyCard() {
  const { t } = useI18n();
  const key = useApiKeyQuery();
  const reset = useResetKeyMutation();
  const remove = useDeleteKeyMutation();
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const busy = reset.isPending || remove.isPending;
  const apiKey = key.data?.apiKey ?? null;
  const origin = typeof window === 'undefined' ? '' : window.location.origin;

  const onReset = () => {
    setMessage(null);
    reset.mutate(undefined, {
      onSuccess: () => setMessage({ tone: 'success', text: t('apikey.resetSuccess') }),
      onError: () => setMessage({ tone: 'error', text: t('apikey.resetFailed') }),
    });
  };
  const onDelete = () => {
    remove.mutate(undefined, {
      onSuccess: () => {
        setConfirming(false);
        setMessage({ tone: 'success', text: t('apikey.deleted') });
      },
      onError: () => {
        setConfirming(false);
        setMessage({ tone: 'error', text: t('apikey.deleteFailed') });
      },
    });
  };

  return (
    <Card title={t('apikey.keyTitle')} description={t('apikey.keyDescription')}>
      <div className="flex flex-col gap-4">
        {message ? (
          <Notice tone={message.tone} onDismiss={() => setMessage(null)}>
            {message.text}
          </Notice>
        ) : null}
        {key.isPending ? (
          <SkeletonLines lines={1} className="p-0" />
        ) : key.isError ? (
          <ErrorState title={t('apikey.loadFailed')} onRetry={() => void key.refetch()} />
        ) : apiKey ? (
          <div className="flex min-w-0 items-center gap-2 rounded-md border border-line bg-subtle px-3 py-2">
            <KeyRound className="size-4 shrink-0 text-muted" aria-hidden />
            <span className="sr-only">{t('apikey.keyLabel')}: </span>
            <code data-testid="api-key" className="min-w-0 flex-1 break-all font-mono text-[13px]">
              {apiKey}
            </code>
            <CopyButton value={apiKey} />
          </div>
        ) : (
          <p data-testid="api-key-none" className="text-muted">
            {t('apikey.none')}
          </p>
        )}
        <div className="flex flex-wrap gap-2">
          <Button
            variant="primary"
            onClick={onReset}
            busy={reset.isPending}
            busyLabel={t('apikey.processing')}
            disabled={busy}
          >
            {t('apikey.new')}
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              setMessage(null);
              setConfirming(true);
            }}
            busy={remove.isPending}
            busyLabel={t('apikey.processing')}
            disabled={busy || !apiKey}
          >
            {t('apikey.delete')}
          </Button>
        </div>
        <div className="flex flex-col gap-1 text-[13px] text-muted">
          <p className="font-medium text-fg">{t('apikey.useTitle')}</p>
          <p>
            {t('apikey.useHandler')}{' '}
            <code className="break-all font-mono text-fg">{origin}/stubs/handler_api.php</code>
          </p>
          <p>
            {t('apikey.useRest')}{' '}
            <code className="break-all font-mono text-fg">
              curl -H "Authorization: Bearer $KEY" {origin}/api/v1/balance
            </code>
          </p>
        </div>
      </div>
      <ConfirmDialog
        open={confirming}
        title={t('apikey.deleteTitle')}
        message={t('apikey.deleteConfirm')}
        confirmLabel={t('apikey.delete')}
        busyLabel={t('apikey.processing')}
        busy={remove.isPending}
        onConfirm={onDelete}
        onCancel={() => setConfirming(false)}
      />
    </Card>
  );
}

function WebhooksCard() {
  const { t } = useI18n();
  const hooks = useWebhooksQuery();
  const add = useAddWebhookMutation();
  const remove = useDeleteWebhookMutation();
  const test = useTestWebhookMutation();
  const {
    register,
    handleSubmit,
    reset,
    setError,
    watch,
    formState: { errors },
  } = useForm<z.input<typeof AddWebhookBody>, unknown, z.output<typeof AddWebhookBody>>({
    defaultValues: { url: '' },
    resolver: zodResolver(AddWebhookBody),
  });
  const url = watch('url');
  const list = hooks.data?.webhooks ?? [];
  const max = hooks.data?.max ?? WEBHOOK_MAX;
  const full = list.length >= max;

  const onAdd = handleSubmit((body) =>
    add.mutate(body.url, {
      onSuccess: () => {
        reset();
        notify.success(t('apikey.hookAdded'));
      },
      onError: (err) =>
        setError('url', { type: 'server', message: t('apikey.hookAddFailed', { error: errorMessage(err) }) }),
    }),
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
              <li key={w.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 px-3 py-2">
                <span className="min-w-0 flex-1 break-all font-mono text-[13px]">{w.url}</span>
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
              </li>
            ))}
          </ul>
        )}
        {full ? (
          <p className="text-[13px] text-muted">{t('apikey.hookLimit', { max })}</p>
        ) : (
          <form onSubmit={onAdd} noValidate className="flex flex-col gap-2 sm:flex-row sm:items-start">
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
          </form>
        )}
      </div>
    </Card>
  );
}

const DELIVERY_TONE = { pending: 'yellow', delivered: 'green', failed: 'red' } as const;

function DeliveryLog() {
  const { t } = useI18n();
  const log = useDeliveriesQuery();
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
      />
    </Card>
  );
}
