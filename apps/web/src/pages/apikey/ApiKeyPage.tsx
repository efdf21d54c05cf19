import { useQueryClient } from '@tanstack/react-query';
import { ExternalLink, KeyRound } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import {
  Button,
  buttonClass,
  Card,
  ConfirmDialog,
  CopyButton,
  ErrorState,
  Notice,
  PageHeader,
  SkeletonLines,
} from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { useApiKeyQuery, useDeleteKeyMutation, useResetKeyMutation } from './api.ts';
import { ProgramKeysCard } from './ProgramKeys.tsx';
import { DeliveryLog, WebhooksCard } from './Webhooks.tsx';

type Message = { tone: 'success' | 'error'; text: string } | null;

/**
 * Calls `onStart` when an action of another card of the page starts (a program key, a webhook):
 * the key card's banner speaks of an earlier action, so it must not stay beside the new one's result.
 */
function useOtherActionStarts(ownKey: string, onStart: () => void) {
  const qc = useQueryClient();
  useEffect(
    () =>
      qc.getMutationCache().subscribe((e) => {
        if (e.type !== 'updated' || e.action.type !== 'pending') return;
        if (e.mutation.options.mutationKey?.[0] !== ownKey) onStart();
      }),
    [qc, ownKey, onStart],
  );
}

/**
 * /apikey (docs/product.md): the key or 'No Apikey', New API Key, Delete API Key after 'Delete apikey ?'
 * (both 'Processing...' while busy; Delete disabled without a key), a link to the API docs in a new
 * tab, how to call the API; then the keys for programs (named keys with scopes, allowed addresses
 * and an expiry), and the webhooks with their events, "send test event" and delivery log.
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
        <ProgramKeysCard />
        <WebhooksCard />
        <DeliveryLog />
      </div>
    </>
  );
}

function KeyCard() {
  const [message, setMessage] = useState<Message>(null);
  const clearMessage = useCallback(() => setMessage(null), []);
  const { t } = useI18n();
  const key = useApiKeyQuery();
  const reset = useResetKeyMutation();
  const remove = useDeleteKeyMutation();
  const [confirming, setConfirming] = useState(false);
  useOtherActionStarts('api-key', clearMessage);
  const busy = reset.isPending || remove.isPending;
  const apiKey = key.data?.apiKey ?? null;
  const origin = typeof window === 'undefined' ? '' : window.location.origin;

  const onReset = () => {
    setMessage(null);
    // The spec's 'API key reset success!' is for replacing a key; a first key is created, not reset.
    const replacing = apiKey !== null;
    reset.mutate(undefined, {
      onSuccess: () =>
        setMessage({ tone: 'success', text: t(replacing ? 'apikey.resetSuccess' : 'apikey.created') }),
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
          <p>
            {t('apikey.useMessages')}{' '}
            <code className="break-all font-mono text-fg">{origin}/api/v1/messages</code>
          </p>
          <p>
            {t('apikey.useSmsGate')} <code className="break-all font-mono text-fg">{origin}/3rdparty/v1</code>
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
