import type { Gateway } from '@simdock/contract';
import { CircleAlert, CircleCheck } from 'lucide-react';
import { type ReactNode, useState } from 'react';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button } from '../../components/Button.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Input } from '../../components/Input.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Notice } from '../../components/Notice.tsx';
import { Switch } from '../../components/Switch.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { cx } from '../../lib/cx.ts';
import { useSaveGatewayMutation } from './api.ts';
import {
  EMPTY_GATEWAY_FORM,
  formFromGateway,
  type GatewayField,
  type GatewayFormValues,
  invalidGatewayFields,
  isGatewayFormValid,
  toGatewayInput,
} from './forms.ts';

export interface GatewayFormModalProps {
  /** The gateway to edit; undefined adds a new one. */
  gateway?: Gateway;
  onClose: () => void;
  onSaved: (gateway: Gateway, added: boolean) => void;
}

/**
 * Add / Edit a gateway (docs/product.md). The live message is 'Data is valid' or 'Please enter all fields
 * correctly' by the contract's `isGatewayValid` (the server's rule; a new gateway also needs its
 * password) and Save stays disabled until it holds. Render it only while open: it starts from the
 * gateway each time.
 */
export function GatewayFormModal({ gateway, onClose, onSaved }: GatewayFormModalProps) {
  const { t } = useI18n();
  const editing = gateway !== undefined;
  const [values, setValues] = useState<GatewayFormValues>(() =>
    gateway ? formFromGateway(gateway) : EMPTY_GATEWAY_FORM,
  );
  const [touched, setTouched] = useState<ReadonlySet<GatewayField>>(new Set());
  /** The field the server blamed, until it is edited. */
  const [serverField, setServerField] = useState<string | undefined>();
  const save = useSaveGatewayMutation();

  const valid = isGatewayFormValid(values, editing);
  const invalid = new Set(invalidGatewayFields(values, editing));
  const showInvalid = (f: GatewayField) => (touched.has(f) && invalid.has(f)) || serverField === f;

  const set = (field: GatewayField, value: string | boolean) => {
    setValues((v) => ({ ...v, [field]: value }));
    setTouched((s) => (s.has(field) ? s : new Set(s).add(field)));
    if (serverField === field) setServerField(undefined);
  };

  const submit = () => {
    if (!valid || save.isPending) return;
    save.mutate(toGatewayInput(values, gateway?.id), {
      onSuccess: (saved) => onSaved(saved, !editing),
      onError: (err) => setServerField(err instanceof ApiError ? err.field : undefined),
    });
  };

  /** A touched invalid field shows why in red: its hint, or that it is required. */
  const fieldError = (name: Exclude<GatewayField, 'isEnable'>): string | undefined => {
    if (!showInvalid(name)) return undefined;
    switch (name) {
      case 'name':
        return t('rule.nameRequired');
      case 'url':
        return t('gateways.urlHint');
      case 'mac':
        return t('gateways.macHint');
      case 'userName':
        return t('rule.usernameRequired');
      case 'password':
        return editing ? t('gateways.passwordHintEdit') : t('rule.passwordRequired');
    }
  };

  const field = (
    name: Exclude<GatewayField, 'isEnable'>,
    label: string,
    extra: { hint?: string; type?: string; autoComplete?: string; placeholder?: string; mono?: boolean },
  ) => (
    <FormField label={label} hint={extra.hint} error={fieldError(name)}>
      <Input
        name={name}
        type={extra.type ?? 'text'}
        value={values[name]}
        autoComplete={extra.autoComplete ?? 'off'}
        spellCheck={false}
        placeholder={extra.placeholder}
        onChange={(e) => set(name, e.target.value)}
        onBlur={() => setTouched((s) => (s.has(name) ? s : new Set(s).add(name)))}
        className={extra.mono ? 'font-mono' : undefined}
      />
    </FormField>
  );

  return (
    <Modal
      open
      title={editing ? t('gateways.editTitle') : t('gateways.addTitle')}
      onClose={onClose}
      busy={save.isPending}
      size="lg"
      onSubmit={submit}
      footer={
        <>
          <Button onClick={onClose} disabled={save.isPending}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            variant="primary"
            disabled={!valid}
            busy={save.isPending}
            busyLabel={t('common.saving')}
          >
            {t('common.save')}
          </Button>
        </>
      }
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
        <Switch
          name="isEnable"
          checked={values.isEnable}
          onCheckedChange={(v) => set('isEnable', v)}
          label={t('gateways.enable')}
          hint={t('gateways.enableHint')}
        />
      </div>

      <p
        role="status"
        className={cx(
          'mt-4 flex items-center gap-1.5 text-[13px] font-medium',
          valid ? 'text-ok' : touched.size > 0 ? 'text-bad' : 'text-muted',
        )}
      >
        {valid ? (
          <CircleCheck className="size-4 shrink-0" aria-hidden />
        ) : (
          <CircleAlert className="size-4 shrink-0" aria-hidden />
        )}
        {valid ? t('gateways.valid') : t('gateways.invalid')}
      </p>

      {save.isError ? (
        <Notice tone="error" title={t('gateways.saveFailed')} className="mt-3">
          {errorMessage(save.error)}
        </Notice>
      ) : null}

      {gateway ? <PushUrls urls={gateway.pushUrls} /> : null}
    </Modal>
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
