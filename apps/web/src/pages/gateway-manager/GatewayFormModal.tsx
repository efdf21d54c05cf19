import { type Gateway, TEXT_LIMITS } from '@simdock/contract';
import { CircleAlert, CircleCheck } from 'lucide-react';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { ApiError, errorMessage } from '../../api/client.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Input } from '../../components/Input.tsx';
import { Switch } from '../../components/Switch.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { fieldErrorText } from '../../lib/forms.ts';
import { useSaveGatewayMutation } from './api.ts';
import {
  EMPTY_GATEWAY_FORM,
  formFromGateway,
  type GatewayField,
  type GatewayFormValues,
  gatewayFieldText,
  gatewayFormResolver,
  isGatewayFormValid,
  toGatewayInput,
} from './forms.ts';

export interface GatewayFormModalProps {
  /** The gateway to edit; undefined adds a new one. */
  gateway?: Gateway;
  onClose: () => void;
  onSaved: (gateway: Gateway, added: boolean) => void;
}

type TextField = Exclude<GatewayField, 'isEnable'>;
const TEXT_FIELDS: readonly TextField[] = ['name', 'url', 'mac', 'userName', 'password'];

/** The contract's bounds of each field (the server refuses longer text). */
const MAX_LENGTH: Record<TextField, number> = {
  name: TEXT_LIMITS.gatewayName,
  url: TEXT_LIMITS.gatewayUrl,
  mac: TEXT_LIMITS.mac,
  userName: TEXT_LIMITS.gatewayUserName,
  password: TEXT_LIMITS.gatewayPassword,
};

/**
 * Add / Edit a gateway (docs/product.md). The live message is 'Data is valid' or 'Please enter all fields
 * correctly' by the contract's `isGatewayValid` (the server's rule; a new gateway also needs its
 * password) and Save stays disabled until it holds; a field shows why it is wrong once it was edited or
 * left. Render it only while open: it starts from the gateway each time.
 */
export function GatewayFormModal({ gateway, onClose, onSaved }: GatewayFormModalProps) {
  const { t } = useI18n();
  const editing = gateway !== undefined;
  const save = useSaveGatewayMutation();
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors, isDirty, touchedFields, submitCount },
  } = useForm<GatewayFormValues>({
    defaultValues: gateway ? formFromGateway(gateway) : EMPTY_GATEWAY_FORM,
    // Checked as the admin types and when a field is left, as the live message is.
    mode: 'all',
    resolver: gatewayFormResolver(editing),
  });
  const valid = isGatewayFormValid(watch(), editing);
  const touched = isDirty || Object.keys(touchedFields).length > 0 || submitCount > 0;

  const submit = handleSubmit((values) =>
    save.mutate(toGatewayInput(values, gateway?.id), {
      onSuccess: (saved) => onSaved(saved, !editing),
      onError: (err) => {
        // The field the server blamed shows as invalid (with its text) until it is edited.
        const field = TEXT_FIELDS.find((f) => err instanceof ApiError && err.field === f);
        if (field) setError(field, { type: 'text', message: gatewayFieldText(field, editing) });
      },
    }),
  );

  const field = (
    name: TextField,
    label: string,
    extra: { hint?: string; type?: string; autoComplete?: string; placeholder?: string; mono?: boolean },
  ) => (
    <FormField label={label} hint={extra.hint} error={fieldErrorText(t, errors[name])}>
      <Input
        type={extra.type ?? 'text'}
        autoComplete={extra.autoComplete ?? 'off'}
        spellCheck={false}
        placeholder={extra.placeholder}
        maxLength={MAX_LENGTH[name]}
        className={extra.mono ? 'font-mono' : undefined}
        {...register(name)}
      />
    </FormField>
  );

  return (
    <FormDialog
      title={editing ? t('gateways.editTitle') : t('gateways.addTitle')}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t('common.save')}
      submitDisabled={!valid}
      pending={save.isPending}
      size="lg"
      error={save.isError ? errorMessage(save.error) : undefined}
      errorTitle={t('gateways.saveFailed')}
    >
      <div className="grid gap-4 sm:grid-cols-2">
        {field('name', t('gateways.name'), {})}
        {field('url', t('gateways.url'), {
          hint: t('gateways.urlHint'),
          type: 'url',
          placeholder: 'http://192.168.1.50',
        })}
        {field('mac', t('gateways.mac'), {
          hint: t('gateways.macHint'),
          placeholder: '00:1a:2b:3c:4d:5e',
          mono: true,
        })}
        {field('userName', t('gateways.userName'), { hint: t('gateways.userNameHint') })}
        {field('password', t('gateways.password'), {
          type: 'password',
          autoComplete: 'new-password',
          hint: editing ? t('gateways.passwordHintEdit') : t('gateways.passwordHintAdd'),
        })}
        <Switch label={t('gateways.enable')} hint={t('gateways.enableHint')} {...register('isEnable')} />
      </div>

      <p
        role="status"
        className={cx(
          'mt-4 flex items-center gap-1.5 text-[13px] font-medium',
          valid ? 'text-ok' : touched ? 'text-bad' : 'text-muted',
        )}
      >
        {valid ? (
          <CircleCheck className="size-4 shrink-0" aria-hidden />
        ) : (
          <CircleAlert className="size-4 shrink-0" aria-hidden />
        )}
        {valid ? t('gateways.valid') : t('gateways.invalid')}
      </p>

      {gateway ? <PushUrls urls={gateway.pushUrls} /> : null}
    </FormDialog>
  );
}

function PushUrls({ urls }: { urls: Gateway['pushUrls'] }) {
  const { t } = useI18n();
  const rows: [string, string][] = [
    [t('gateways.pushStatus'), urls.status],
    [t('gateways.pushSms'), urls.sms],
    [t('gateways.pushReport'), urls.report],
  ];
  return (
    <section className="mt-5 border-t border-line pt-4" aria-labelledby="gateway-push-urls">
      <h3 id="gateway-push-urls" className="text-[13px] font-semibold text-fg">
        {t('gateways.pushUrls')}
      </h3>
      <p className="mt-0.5 text-xs text-muted">{t('gateways.pushUrlsHint')}</p>
      <dl className="mt-2.5 flex flex-col gap-2">
        {rows.map(([label, url]) => (
          <PushUrlRow key={label} label={label} url={url} />
        ))}
      </dl>
    </section>
  );
}

function PushUrlRow({ label, url }: { label: ReactNode; url: string }) {
  return (
    <div className="grid grid-cols-[4.5rem_1fr_auto] items-start gap-2 rounded-md bg-subtle/70 px-2.5 py-1.5">
      <dt className="pt-0.5 text-xs font-medium text-muted">{label}</dt>
      <dd className="min-w-0 break-all pt-0.5 font-mono text-xs text-fg">{url}</dd>
      <dd>
        <CopyButton value={url} />
      </dd>
    </div>
  );
}
