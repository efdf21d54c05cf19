import {
  ALLOWED_IPS_MAX,
  API_KEY_NAME_MAX,
  API_KEY_SCOPES,
  API_KEYS_MAX,
  type ApiKeyInfo,
  type SmppPasswordResponse,
} from '@simdock/contract';
import { KeyRound, Plus, RadioTower, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { type FieldError, type Resolver, useForm } from 'react-hook-form';
import { errorMessage } from '../../api/client.ts';
import {
  Button,
  Card,
  type Column,
  ConfirmDialog,
  CopyButton,
  DataTable,
  FormDialog,
  FormField,
  Input,
  Modal,
  Notice,
  notify,
  StatusBadge,
  Textarea,
} from '../../components/index.ts';
import { type TFunction, useI18n } from '../../i18n/index.tsx';
import { formatDate, formatDateTime } from '../../lib/format.ts';
import { fieldErrorText, serverFieldErrorOf } from '../../lib/forms.ts';
import {
  useApiKeysQuery,
  useCreateKeyMutation,
  useDeleteNamedKeyMutation,
  useSmppDoor,
  useSmppPasswordMutation,
} from './api.ts';
import {
  EMPTY_KEY_FORM,
  type KeyFormValues,
  keyFormProblems,
  localDay,
  prefixText,
  toCreateBody,
} from './key-form.ts';

/**
 * "Keys for programs": the user's other keys (the default key is the card above: shown once; it still
 * counts toward the limit), each
 * with its scopes, allowed addresses, expiry and last use; a dialog makes a new one, whose key is
 * shown once, and a confirmation precedes a delete. A key that may send messages can get an SMPP
 * password (shown once too); the card ends with how to bind over SMPP.
 */
export function ProgramKeysCard() {
  const { t } = useI18n();
  const keys = useApiKeysQuery();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ApiKeyInfo | null>(null);
  const [smppFor, setSmppFor] = useState<ApiKeyInfo | null>(null);
  const [smppShown, setSmppShown] = useState<SmppPasswordResponse | null>(null);
  const all = keys.data?.keys;
  const list = all?.filter((k) => !k.isDefault);
  const max = keys.data?.max ?? API_KEYS_MAX;
  const full = (all?.length ?? 0) >= max;

  const columns: Column<ApiKeyInfo>[] = [
    {
      key: 'name',
      header: t('apikey.keyColName'),
      cell: (k) => (
        <span className="flex flex-wrap items-center gap-1.5">
          <span className="font-medium break-all">{k.name}</span>
        </span>
      ),
    },
    {
      key: 'prefix',
      header: t('apikey.keyColPrefix'),
      cellClassName: 'font-mono text-xs whitespace-nowrap',
      cell: (k) => prefixText(k) ?? <span className="text-muted">{t('apikey.keyPrefixUnknown')}</span>,
    },
    {
      key: 'scopes',
      header: t('apikey.keyColScopes'),
      cell: (k) => (
        <ul className="flex flex-wrap gap-1" aria-label={t('apikey.keyColScopes')}>
          {k.scopes.map((s) => (
            <li key={s} className="rounded bg-subtle px-1.5 py-0.5 text-xs whitespace-nowrap">
              {t(`apikey.scope.${s}`)}
            </li>
          ))}
        </ul>
      ),
    },
    {
      key: 'ips',
      header: t('apikey.keyColIps'),
      cell: (k) =>
        k.allowedIps.length === 0 ? (
          <span className="text-muted">{t('apikey.keyAnyIp')}</span>
        ) : (
          <ul className="flex flex-col font-mono text-xs">
            {k.allowedIps.map((ip) => (
              <li key={ip} className="break-all">
                {ip}
              </li>
            ))}
          </ul>
        ),
    },
    {
      key: 'expires',
      header: t('apikey.keyColExpires'),
      cellClassName: 'whitespace-nowrap',
      cell: (k) =>
        k.expired ? (
          <StatusBadge tone="red" title={k.expiresAt ? formatDateTime(k.expiresAt) : undefined}>
            {t('apikey.keyExpired')}
          </StatusBadge>
        ) : k.expiresAt ? (
          <span className="tabular" title={formatDateTime(k.expiresAt)}>
            {formatDate(k.expiresAt)}
          </span>
        ) : (
          <span className="text-muted">{t('apikey.keyNever')}</span>
        ),
    },
    {
      key: 'lastUsed',
      header: t('apikey.keyColLastUsed'),
      cellClassName: 'whitespace-nowrap tabular',
      cell: (k) =>
        k.lastUsedAt ? (
          formatDateTime(k.lastUsedAt)
        ) : (
          <span className="text-muted">{t('apikey.keyNeverUsed')}</span>
        ),
    },
    {
      key: 'actions',
      header: <span className="sr-only">{t('apikey.keyColActions')}</span>,
      cardLabel: false,
      align: 'right',
      cell: (k) => (
        <span className="flex flex-wrap justify-end gap-1">
          {k.scopes.includes('messaging:send') ? (
            <Button
              size="sm"
              variant="ghost"
              icon={<RadioTower className="size-3.5" aria-hidden />}
              aria-label={t('apikey.smppNewFor', { name: k.name })}
              onClick={() => setSmppFor(k)}
            >
              {t('apikey.smppNew')}
            </Button>
          ) : null}
          <Button
            size="sm"
            variant="ghost"
            icon={<Trash2 className="size-3.5" aria-hidden />}
            aria-label={t('apikey.keyDeleteFor', { name: k.name })}
            onClick={() => setDeleting(k)}
          >
            {t('apikey.keyDelete')}
          </Button>
        </span>
      ),
    },
  ];

  return (
    <Card
      flush
      title={t('apikey.keysTitle')}
      description={t('apikey.keysDescription', { max })}
      actions={
        <Button
          variant="primary"
          icon={<Plus className="size-4" aria-hidden />}
          onClick={() => setCreating(true)}
          disabled={!keys.data || full}
        >
          {t('apikey.keyCreate')}
        </Button>
      }
    >
      {full ? (
        <p className="border-b border-line px-4 py-2 text-[13px] text-muted">
          {t('apikey.keysLimit', { max })}
        </p>
      ) : null}
      <DataTable
        caption={t('apikey.keysCaption')}
        columns={columns}
        rows={list}
        rowKey={(k) => k.id}
        loading={keys.isFetching}
        error={keys.isError ? keys.error : undefined}
        errorTitle={t('apikey.keysLoadFailed')}
        onRetry={() => keys.refetch()}
        emptyText={t('apikey.keysEmpty')}
        rowClassName={(k) => (k.expired ? 'text-muted' : undefined)}
        skeletonRows={2}
        phoneCards
      />
      {creating ? (
        <CreateKeyDialog
          onClose={() => setCreating(false)}
          onCreated={(apiKey) => {
            setCreating(false);
            setCreated(apiKey);
          }}
        />
      ) : null}
      <NewKeyDialog apiKey={created} onClose={() => setCreated(null)} />
      <DeleteKeyDialog keyInfo={deleting} onClose={() => setDeleting(null)} />
      <SmppPasswordDialog
        keyInfo={smppFor}
        onClose={() => setSmppFor(null)}
        onDone={(answer) => {
          setSmppFor(null);
          setSmppShown(answer);
        }}
      />
      <SmppShownDialog answer={smppShown} onClose={() => setSmppShown(null)} />
      <SmppHelp />
    </Card>
  );
}

/** The dialog's resolver: the contract's rules (cidr.ts for the addresses), in the user's words. */
function keyResolver(t: TFunction): Resolver<KeyFormValues> {
  return async (values) => {
    const problems = Object.entries(keyFormProblems(values, localDay(new Date())));
    if (problems.length === 0) return { values, errors: {} };
    return {
      values: {},
      errors: Object.fromEntries(
        problems.map(([field, p]) => [field, { type: 'validate', message: t(p.key, p.params) }]),
      ),
    };
  };
}

function CreateKeyDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (apiKey: string) => void;
}) {
  const { t } = useI18n();
  const create = useCreateKeyMutation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<KeyFormValues>({ defaultValues: EMPTY_KEY_FORM, resolver: keyResolver(t) });
  const [banner, setBanner] = useState<string | null>(null);

  const submit = handleSubmit((values) => {
    setBanner(null);
    create.mutate(toCreateBody(values), {
      onSuccess: (res) => onCreated(res.apiKey),
      onError: (err) => {
        const onField = serverFieldErrorOf(err, ['name', 'scopes', 'allowedIps'] as const);
        if (onField) setError(onField.field, { type: onField.type, message: onField.message });
        else if (serverFieldErrorOf(err, ['expiresAt'] as const)) {
          setError('expiresOn', { type: 'server', message: errorMessage(err) });
        } else setBanner(errorMessage(err));
      },
    });
  });

  return (
    <FormDialog
      title={t('apikey.createTitle')}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t('apikey.createSubmit')}
      pendingLabel={t('apikey.creating')}
      pending={create.isPending}
      error={banner}
      errorTitle={t('apikey.createFailed')}
    >
      <div className="flex flex-col gap-4">
        <FormField
          label={t('apikey.fieldName')}
          hint={t('apikey.fieldNameHint')}
          error={fieldErrorText(t, errors.name)}
        >
          <Input autoComplete="off" maxLength={API_KEY_NAME_MAX} {...register('name')} />
        </FormField>
        <fieldset aria-describedby={errors.scopes ? 'key-scopes-error' : undefined}>
          <legend className="mb-1.5 text-[13px] font-medium text-fg">{t('apikey.fieldScopes')}</legend>
          <div className="flex flex-col gap-1.5">
            {API_KEY_SCOPES.map((scope) => (
              <label
                key={scope}
                className="flex cursor-pointer items-start gap-2 rounded-md border border-line px-3 py-2 text-[13px] hover:bg-subtle/50"
              >
                <input
                  type="checkbox"
                  value={scope}
                  className="mt-0.5 size-4 shrink-0 accent-accent"
                  {...register('scopes')}
                />
                <span className="flex flex-col">
                  <span className="font-medium text-fg">{t(`apikey.scope.${scope}`)}</span>
                  <span className="text-xs text-muted">{t(`apikey.scopeHint.${scope}`)}</span>
                </span>
              </label>
            ))}
          </div>
          {errors.scopes ? (
            <p id="key-scopes-error" role="alert" className="mt-1 text-xs font-medium text-bad">
              {fieldErrorText(t, errors.scopes as FieldError)}
            </p>
          ) : null}
        </fieldset>
        <FormField
          label={t('apikey.fieldIps')}
          hint={t('apikey.fieldIpsHint', { max: ALLOWED_IPS_MAX })}
          error={fieldErrorText(t, errors.allowedIps)}
        >
          <Textarea
            rows={3}
            spellCheck={false}
            autoComplete="off"
            className="font-mono text-[13px]"
            placeholder={'203.0.113.7\n2001:db8::/32'}
            {...register('allowedIps')}
          />
        </FormField>
        <FormField
          label={t('apikey.fieldExpires')}
          hint={t('apikey.fieldExpiresHint')}
          error={fieldErrorText(t, errors.expiresOn)}
        >
          <Input type="date" min={localDay(new Date())} className="sm:max-w-56" {...register('expiresOn')} />
        </FormField>
      </div>
    </FormDialog>
  );
}

/** The new key, this once: it is kept nowhere in clear. */
function NewKeyDialog({ apiKey, onClose }: { apiKey: string | null; onClose: () => void }) {
  const { t } = useI18n();
  return (
    <Modal
      open={apiKey !== null}
      title={t('apikey.createdTitle')}
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose} data-autofocus>
          {t('apikey.createdDone')}
        </Button>
      }
    >
      <div className="flex flex-col gap-3">
        <Notice tone="info">{t('apikey.createdOnce')}</Notice>
        {apiKey ? (
          <div className="flex min-w-0 items-center gap-2 rounded-md border border-line bg-subtle px-3 py-2">
            <KeyRound className="size-4 shrink-0 text-muted" aria-hidden />
            <span className="sr-only">{t('apikey.createdLabel')}: </span>
            <code data-testid="new-api-key" className="min-w-0 flex-1 break-all font-mono text-[13px]">
              {apiKey}
            </code>
            <CopyButton value={apiKey} label={t('common.copy')} />
          </div>
        ) : null}
      </div>
    </Modal>
  );
}

function DeleteKeyDialog({ keyInfo, onClose }: { keyInfo: ApiKeyInfo | null; onClose: () => void }) {
  const { t } = useI18n();
  const remove = useDeleteNamedKeyMutation();
  const onConfirm = () => {
    if (!keyInfo) return;
    remove.mutate(keyInfo.id, {
      onSuccess: () => {
        onClose();
        notify.success(t('apikey.keyDeleted'));
      },
    });
  };
  return (
    <ConfirmDialog
      open={keyInfo !== null}
      title={t('apikey.keyDeleteTitle')}
      message={
        keyInfo
          ? t('apikey.keyDeleteConfirm', { name: keyInfo.name, prefix: keyInfo.prefix ?? 'sd_' })
          : undefined
      }
      confirmLabel={t('apikey.keyDelete')}
      busy={remove.isPending}
      error={remove.isError ? t('apikey.keyDeleteFailed', { error: errorMessage(remove.error) }) : undefined}
      onConfirm={onConfirm}
      onCancel={() => {
        remove.reset();
        onClose();
      }}
    />
  );
}

/** Asks first: a new SMPP password ends the old one for new binds. */
function SmppPasswordDialog({
  keyInfo,
  onClose,
  onDone,
}: {
  keyInfo: ApiKeyInfo | null;
  onClose: () => void;
  onDone: (answer: SmppPasswordResponse) => void;
}) {
  const { t } = useI18n();
  const make = useSmppPasswordMutation();
  return (
    <ConfirmDialog
      open={keyInfo !== null}
      title={t('apikey.smppTitle')}
      message={keyInfo ? t('apikey.smppConfirm', { name: keyInfo.name }) : undefined}
      confirmLabel={t('apikey.smppConfirmButton')}
      tone="primary"
      busy={make.isPending}
      error={make.isError ? t('apikey.smppFailed', { error: errorMessage(make.error) }) : undefined}
      onConfirm={() => {
        if (!keyInfo) return;
        make.mutate(keyInfo.id, {
          onSuccess: (answer) => {
            make.reset();
            onDone(answer);
          },
        });
      }}
      onCancel={() => {
        make.reset();
        onClose();
      }}
    />
  );
}

function CredentialLine({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <div className="flex min-w-0 items-center gap-2 border-b border-line px-3 py-2 last:border-b-0">
      <span className="w-24 shrink-0 text-[13px] text-muted">{label}</span>
      <code data-testid={testId} className="min-w-0 flex-1 break-all font-mono text-[13px]">
        {value}
      </code>
      <CopyButton value={value} name={label} />
    </div>
  );
}

/** The SMPP credentials, this once: only the password's hash is kept. */
function SmppShownDialog({ answer, onClose }: { answer: SmppPasswordResponse | null; onClose: () => void }) {
  const { t } = useI18n();
  return (
    <Modal
      open={answer !== null}
      title={t('apikey.smppShownTitle')}
      onClose={onClose}
      footer={
        <Button variant="primary" onClick={onClose} data-autofocus>
          {t('apikey.createdDone')}
        </Button>
      }
    >
      {answer ? (
        <div className="flex flex-col gap-3">
          <Notice tone="info">{t('apikey.smppShownOnce')}</Notice>
          <div className="rounded-md border border-line bg-subtle">
            <CredentialLine label={t('apikey.smppHost')} value={answer.host} testId="smpp-host" />
            <CredentialLine label={t('apikey.smppPort')} value={String(answer.port)} testId="smpp-port" />
            {answer.tlsPort === null ? (
              <div className="flex items-center gap-2 border-b border-line px-3 py-2 text-[13px]">
                <span className="w-24 shrink-0 text-muted">{t('apikey.smppTlsPort')}</span>
                <span data-testid="smpp-tls-port" className="text-muted">
                  {t('apikey.smppTlsOff')}
                </span>
              </div>
            ) : (
              <CredentialLine
                label={t('apikey.smppTlsPort')}
                value={String(answer.tlsPort)}
                testId="smpp-tls-port"
              />
            )}
            <CredentialLine label="system_id" value={answer.systemId} testId="smpp-system-id" />
            <CredentialLine label={t('apikey.smppPassword')} value={answer.password} testId="smpp-password" />
          </div>
        </div>
      ) : null}
    </Modal>
  );
}

/**
 * How to bind: the host and ports are the last answer's (the server names them nowhere else); before
 * one, this page's host and the server's default ports.
 */
function SmppHelp() {
  const { t } = useI18n();
  const door = useSmppDoor();
  const host = door?.host ?? (typeof window === 'undefined' ? '' : window.location.hostname);
  return (
    <div
      data-testid="smpp-help"
      className="flex flex-col gap-1 border-t border-line px-4 py-3 text-[13px] text-muted"
    >
      <p className="flex items-center gap-1.5 font-medium text-fg">
        <RadioTower className="size-4 text-muted" aria-hidden />
        {t('apikey.smppHelpTitle')}
      </p>
      <p>
        {t('apikey.smppHelpText')} <code className="break-all font-mono text-fg">{host}</code>
        {', '}
        {door
          ? door.tlsPort === null
            ? t('apikey.smppHelpPortsNoTls', { port: door.port })
            : t('apikey.smppHelpPorts', { port: door.port, tlsPort: door.tlsPort })
          : t('apikey.smppHelpPortsDefault')}
      </p>
    </div>
  );
}
