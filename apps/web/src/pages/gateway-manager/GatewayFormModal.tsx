import {
  DEVICE_KINDS,
  type Gateway,
  GOIP_MODES,
  type GoipMode,
  PHONE_MODES,
  type PhoneMode,
  TEXT_LIMITS,
} from '@simdock/contract';
import { CircleAlert, CircleCheck } from 'lucide-react';
import { useForm } from 'react-hook-form';
import { ApiError, errorMessage } from '../../api/client.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Input } from '../../components/Input.tsx';
import { Switch } from '../../components/Switch.tsx';
import { type MessageKey, useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { fieldErrorText } from '../../lib/forms.ts';
import { useSaveGatewayMutation } from './api.ts';
import { ChoiceCards } from './ChoiceCards.tsx';
import { DeviceSettings } from './DeviceSettings.tsx';
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
import { GOIP_MODE_TEXT, KIND_ICON, KIND_TEXT, MODE_TEXT } from './kinds.ts';

export interface GatewayFormModalProps {
  /** The gateway to edit; undefined adds a new one. */
  gateway?: Gateway;
  onClose: () => void;
  /** `password`: as typed (blank: unchanged), for what the admin still has to enter on the device. */
  onSaved: (gateway: Gateway, added: boolean, password: string) => void;
}

type TextField =
  | 'name'
  | 'url'
  | 'mac'
  | 'userName'
  | 'password'
  | 'deviceId'
  | 'signingKey'
  | 'webUser'
  | 'webPassword';
/** Fields the server may blame by name; the error goes under the field. */
const BLAMEABLE: readonly CheckedField[] = [
  'name',
  'url',
  'mac',
  'userName',
  'password',
  'mode',
  'signingKey',
  'webUser',
  'webPassword',
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
  webUser: TEXT_LIMITS.gatewayUserName,
  webPassword: TEXT_LIMITS.gatewayPassword,
};

function KindIcon({ kind }: { kind: Gateway['kind'] }) {
  const Icon = KIND_ICON[kind];
  return <Icon className="size-4" />;
}

/**
 * Add / Edit a gateway (docs/product.md) of any device kind: an Ejoin box (the spec's fields), an
 * SMSGate phone (docs/devices-smsgate.md: mode, device id, signing key) or a GoIP box (its ID, the
 * lines' password, its connection: lines over UDP, or the box's web pages with their URL and login). The kind is chosen first and is fixed once
 * saved. The live message is 'Data is valid' or 'Please enter all fields correctly' by the contract's
 * kind-aware rule (a new gateway also needs its password, a new Cloud or Private phone its signing
 * key) and Save stays disabled until it holds; a field shows why it is wrong once it was edited or
 * left. On edit, what to enter on the device follows (DeviceSettings). Render it only while open: it
 * starts from the gateway each time.
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
  const goip = values.kind === 'goip';
  const mode = values.mode || undefined;
  const goipWeb = goip && values.goipMode === 'web';

  const submit = handleSubmit((v) =>
    save.mutate(toGatewayInput(v, gateway?.id), {
      onSuccess: (saved) => onSaved(saved, !editing, v.password),
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
      : t(
          phone
            ? 'gateways.phonePasswordHintAdd'
            : goip
              ? 'gateways.goipPasswordHintAdd'
              : 'gateways.passwordHintAdd',
        ),
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

  // A GoIP box: no MAC or key; its ID names its lines. Its lines connect to SimDock (udp), or SimDock
  // uses the box's web pages (web: their URL and login are needed).
  const goipFields = (
    <>
      <div className="sm:col-span-2">{field('name', t('gateways.name'), {})}</div>
      <div className="sm:col-span-2">
        <ChoiceCards<GoipMode>
          legend={t('gateways.goipConnection')}
          columns={2}
          field={register('goipMode')}
          choices={GOIP_MODES.map((m) => ({
            value: m,
            label: t(GOIP_MODE_TEXT[m].label),
            hint: t(GOIP_MODE_TEXT[m].hint),
          }))}
        />
      </div>
      {field('userName', t('gateways.goipId'), {
        hint: t('gateways.goipIdHint'),
        placeholder: 'goip',
        mono: true,
      })}
      {password}
      {field('url', t(goipWeb ? 'gateways.goipWebUrl' : 'gateways.goipUrl'), {
        hint: t(goipWeb ? 'gateways.goipWebUrlHint' : 'gateways.goipUrlHint'),
        type: 'url',
        placeholder: 'http://192.168.1.70',
      })}
      {field('webUser', t(goipWeb ? 'gateways.goipWebUser' : 'gateways.goipWebUserOptional'), {
        hint: t('gateways.goipWebUserHint'),
        placeholder: 'admin',
      })}
      {field('webPassword', t('gateways.goipWebPassword'), {
        type: 'password',
        autoComplete: 'new-password',
        hint: t(
          editing && gateway?.hasWebPassword
            ? 'gateways.passwordHintEdit'
            : goipWeb
              ? 'gateways.goipWebPasswordHint'
              : 'gateways.goipWebPasswordHintOptional',
        ),
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
            columns={3}
            choices={DEVICE_KINDS.map((k) => ({
              value: k,
              label: t(KIND_TEXT[k].long),
              hint: t(KIND_TEXT[k].hint),
              icon: <KindIcon kind={k} />,
            }))}
          />
        )}
      </div>

      <div className="grid gap-4 sm:grid-cols-2">{phone ? phoneFields : goip ? goipFields : boxFields}</div>

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

      {/* A box read through its web pages is set up by nothing on the box: no settings to show. */}
      {gateway && !goipWeb ? <DeviceSettings gateway={gateway} password={values.password} /> : null}
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
          <KindIcon kind={kind} />
        </span>
        <span className="font-medium">{t(KIND_TEXT[kind].long)}</span>
      </span>
      <span className="text-xs text-muted">{t('gateways.kindFixed')}</span>
    </div>
  );
}
