import { type Gateway, PHONE_MODES, type PhoneMode, TEXT_LIMITS } from '@simdock/contract';
import { CircleAlert, CircleCheck, Router, Smartphone } from 'lucide-react';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { ApiError, errorMessage } from '../../api/client.ts';
import { CopyButton } from '../../components/CopyButton.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Input } from '../../components/Input.tsx';
import { Switch } from '../../components/Switch.tsx';
import { type MessageKey, useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { fieldErrorText } from '../../lib/forms.ts';
import { useSaveGatewayMutation } from './api.ts';
import { ChoiceCards } from './ChoiceCards.tsx';
import {
  type CheckedField,
  EMPTY_GATEWAY_FORM,
  formFromGateway,
  type GatewayFormValues,
  gatewayFieldText,
  gatewayFormResolver,
  isGatewayFormValid,
  PHONE_URL_HINT,
  PHONE_URL_PLACEHOLDER,
  toGatewayInput,
} from './forms.ts';
import { KIND_TEXT, MODE_TEXT } from './kinds.ts';

export interface GatewayFormModalProps {
  /** The gateway to edit; undefined adds a new one. */
  gateway?: Gateway;
  onClose: () => void;
  onSaved: (gateway: Gateway, added: boolean) => void;
}

type TextField = 'name' | 'url' | 'mac' | 'userName' | 'password' | 'deviceId' | 'signingKey';
/** Fields the server may blame by name; the error goes under the field. */
const BLAMEABLE: readonly CheckedField[] = [
  'name',
  'url',
  'mac',
  'userName',
  'password',
  'mode',
  'signingKey',
];

/** The contract's bounds of each field (the server refuses longer text). */
const MAX_LENGTH: Record<TextField, number> = {
  name: TEXT_LIMITS.gatewayName,
  url: TEXT_LIMITS.gatewayUrl,
  mac: TEXT_LIMITS.mac,
  userName: TEXT_LIMITS.gatewayUserName,
  password: TEXT_LIMITS.gatewayPassword,
  deviceId: TEXT_LIMITS.deviceId,
  signingKey: TEXT_LIMITS.signingKey,
};

const KIND_ICON = {
  ejoin: <Router className="size-4" />,
  smsgate: <Smartphone className="size-4" />,
} as const;

/**
 * Add / Edit a gateway (docs/product.md) of either device kind: an Ejoin box (the spec's fields) or an
 * SMSGate phone (docs/devices-smsgate.md: mode, device id, signing key). The kind is chosen first and
 * is fixed once saved. The live message is 'Data is valid' or 'Please enter all fields correctly' by
 * the contract's kind-aware rule (a new gateway also needs its password, a new Cloud or Private phone
 * its signing key) and Save stays disabled until it holds; a field shows why it is wrong once it was
 * edited or left. Render it only while open: it starts from the gateway each time.
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
  const values = watch();
  const valid = isGatewayFormValid(values, editing);
  const touched = isDirty || Object.keys(touchedFields).length > 0 || submitCount > 0;
  const phone = values.kind === 'smsgate';
  const mode = values.mode || undefined;

  const submit = handleSubmit((v) =>
    save.mutate(toGatewayInput(v, gateway?.id), {
      onSuccess: (saved) => onSaved(saved, !editing),
      onError: (err) => {
        // The field the server blamed shows as invalid (with its text) until it is edited.
        const field = BLAMEABLE.find((f) => err instanceof ApiError && err.field === f);
        if (field) setError(field, { type: 'text', message: gatewayFieldText(field, v, editing) });
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

  const enable = (
    <Switch label={t('gateways.enable')} hint={t('gateways.enableHint')} {...register('isEnable')} />
  );
  const password = field('password', t('gateways.password'), {
    type: 'password',
    autoComplete: 'new-password',
    hint: editing
      ? t('gateways.passwordHintEdit')
      : t(phone ? 'gateways.phonePasswordHintAdd' : 'gateways.passwordHintAdd'),
  });

  const boxFields = (
    <>
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
      {password}
      {enable}
    </>
  );

  const phoneFields = (
    <>
      <div className="sm:col-span-2">{field('name', t('gateways.name'), {})}</div>
      <div className="sm:col-span-2">
        <ChoiceCards<PhoneMode>
          legend={t('gateways.mode')}
          columns={3}
          field={register('mode')}
          error={fieldErrorText(t, errors.mode)}
          choices={PHONE_MODES.map((m) => ({
            value: m,
            label: t(MODE_TEXT[m].label),
            hint: t(MODE_TEXT[m].hint),
          }))}
        />
      </div>
      {field('url', t('gateways.url'), {
        hint: t(mode ? PHONE_URL_HINT[mode] : 'gateways.urlHint'),
        type: 'url',
        placeholder: PHONE_URL_PLACEHOLDER[mode ?? 'local'],
      })}
      {field('userName', t('gateways.userName'), {
        hint: mode
          ? t(mode === 'local' ? 'gateways.phoneUserHintLocal' : 'gateways.phoneUserHintCloud')
          : undefined,
        placeholder: mode === 'local' ? 'sms' : undefined,
      })}
      {password}
      {field('signingKey', t('gateways.signingKey'), {
        type: 'password',
        autoComplete: 'off',
        mono: true,
        hint: t(signingKeyHint(mode, editing, gateway?.hasSigningKey ?? false)),
      })}
      {field('deviceId', t('gateways.deviceId'), {
        hint: t('gateways.deviceIdHint'),
        mono: true,
      })}
      {enable}
    </>
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
      <div className="mb-4">
        {editing ? (
          <FixedKind kind={values.kind} />
        ) : (
          <ChoiceCards
            legend={t('gateways.kind')}
            field={register('kind')}
            choices={(['ejoin', 'smsgate'] as const).map((k) => ({
              value: k,
              label: t(KIND_TEXT[k].long),
              hint: t(KIND_TEXT[k].hint),
              icon: KIND_ICON[k],
            }))}
          />
        )}
      </div>

      <div className="grid gap-4 sm:grid-cols-2">{phone ? phoneFields : boxFields}</div>

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

      {gateway ? <PushUrls gateway={gateway} /> : null}
    </FormDialog>
  );
}

/**
 * The signing key's line: blank keeps a stored key; a Local phone may leave it blank (SimDock sets one
 * through the phone's API); otherwise it comes from the app.
 */
function signingKeyHint(mode: PhoneMode | undefined, editing: boolean, stored: boolean): MessageKey {
  if (editing && stored) return 'gateways.signingKeyHintEdit';
  if (mode === 'local') return 'gateways.signingKeyHintLocal';
  return editing ? 'gateways.signingKeyHintMissing' : 'gateways.signingKeyHint';
}

/** On edit the kind is shown, not offered: a saved gateway keeps its kind. */
function FixedKind({ kind }: { kind: Gateway['kind'] }) {
  const { t } = useI18n();
  return (
    <div className="flex flex-col gap-1.5">
      <span className="text-[13px] font-medium text-fg">{t('gateways.kind')}</span>
      <span className="flex items-center gap-2 rounded-md border border-line bg-subtle/60 px-3 py-2 text-[13px] text-fg">
        <span className="text-muted" aria-hidden>
          {KIND_ICON[kind]}
        </span>
        <span className="font-medium">{t(KIND_TEXT[kind].long)}</span>
      </span>
      <span className="text-xs text-muted">{t('gateways.kindFixed')}</span>
    </div>
  );
}

/**
 * Where the device must push. A box: three URLs (Scan sets them on it; a box set up by hand needs
 * them). A phone: one webhook URL, which SimDock registers on the phone for each event at Scan.
 */
function PushUrls({ gateway }: { gateway: Gateway }) {
  const { t } = useI18n();
  const urls = gateway.pushUrls;
  const phone = gateway.kind === 'smsgate';
  const rows: [string, string][] = phone
    ? [[t('gateways.pushWebhook'), urls.base]]
    : [
        [t('gateways.pushStatus'), urls.status],
        [t('gateways.pushSms'), urls.sms],
        [t('gateways.pushReport'), urls.report],
      ];
  return (
    <section className="mt-5 border-t border-line pt-4" aria-labelledby="gateway-push-urls">
      <h3 id="gateway-push-urls" className="text-[13px] font-semibold text-fg">
        {phone ? t('gateways.pushUrlPhone') : t('gateways.pushUrls')}
      </h3>
      <p className="mt-0.5 text-xs text-muted">
        {phone ? t('gateways.pushUrlPhoneHint') : t('gateways.pushUrlsHint')}
      </p>
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
