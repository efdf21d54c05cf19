import {
  endpoints,
  SECOND_FACTOR_CODE_MAX,
  SecondFactorCodeBody,
  type SecondFactorStartResponse,
} from '@simdock/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { call, errorMessage } from '../../api/client.ts';
import { forgetReauth } from '../../api/reauth.ts';
import { Button } from '../../components/Button.tsx';
import { Card } from '../../components/Card.tsx';
import { CopyButton } from '../../components/CopyButton.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Input } from '../../components/Input.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Notice } from '../../components/Notice.tsx';
import { StatusBadge } from '../../components/StatusBadge.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { allResolvers } from '../../lib/all-resolvers.ts';
import { formatDateTime } from '../../lib/format.ts';
import { bodyResolver, fieldErrorText, ruleResolver } from '../../lib/forms.ts';

const STATUS_KEY = ['user', 'secondFactor'] as const;
type Step = null | 'enrol' | 'disable' | 'regenerate';

interface CodeValues {
  code: string;
}
const toCodeBody = (v: CodeValues): SecondFactorCodeBody => ({ code: v.code.trim() });
// The enrolment code: required (shown under the field), then the contract's body schema (its limit,
// SECOND_FACTOR_CODE_MAX, the server's too).
const codeResolver = allResolvers<CodeValues>(
  ruleResolver((v) => ({ code: v.code.trim() ? undefined : 'codeRequired' })),
  bodyResolver(SecondFactorCodeBody, toCodeBody),
);

/** The recovery codes as a text file (one a line) for the browser to save. */
function download(codes: string[]) {
  const url = URL.createObjectURL(new Blob([`${codes.join('\n')}\n`], { type: 'text/plain' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = 'simdock-recovery-codes.txt';
  a.click();
  URL.revokeObjectURL(url);
}

/** User Info's two-factor section: status, enrolment (QR + key + code), recovery codes, turning off. */
export function SecondFactorCard() {
  const { t } = useI18n();
  const qc = useQueryClient();
  const status = useQuery({ queryKey: STATUS_KEY, queryFn: () => call(endpoints.secondFactor.status) });
  const [step, setStep] = useState<Step>(null);
  const [setup, setSetup] = useState<SecondFactorStartResponse | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const codeForm = useForm<CodeValues>({ defaultValues: { code: '' }, resolver: codeResolver });
  const codeError = codeForm.formState.errors.code;
  const done = () => {
    setStep(null);
    codeForm.reset();
    void qc.invalidateQueries({ queryKey: STATUS_KEY });
  };
  const start = useMutation({
    mutationFn: () => call(endpoints.secondFactor.start),
    onSuccess: (res) => {
      setSetup(res);
      setStep('enrol');
    },
  });
  const submit = useMutation({
    mutationFn: async ({ s, body }: { s: Exclude<Step, null>; body?: SecondFactorCodeBody }) => {
      if (s === 'enrol') {
        const made = (await call(endpoints.secondFactor.confirm, body ?? { code: '' })).recoveryCodes;
        // The held re-authentication checked no code: the next guarded call asks for one.
        forgetReauth();
        return made;
      }
      // No code here: the re-authentication dialog asks for the password and a code, and the
      // server takes that code for this call (a code works once).
      if (s === 'regenerate')
        return (await call(endpoints.secondFactor.regenerate, { code: '' })).recoveryCodes;
      await call(endpoints.secondFactor.disable, { code: '' });
      return null;
    },
    onSuccess: (recoveryCodes) => {
      setCodes(recoveryCodes);
      done();
    },
  });
  const open = (s: Exclude<Step, null>) => {
    submit.reset();
    codeForm.reset();
    if (s === 'enrol') start.mutate();
    else setStep(s);
  };
  const s = status.data;

  return (
    <Card title={t('sf.title')} description={t('sf.description')}>
      <div className="flex flex-col gap-3" data-testid="second-factor">
        {s?.required ? <Notice tone="info">{t('sf.required')}</Notice> : null}
        <p className="flex flex-wrap items-center gap-2 text-sm">
          <StatusBadge tone={s?.enabled ? 'green' : 'grey'}>
            {s?.enabled && s.enabledAt
              ? t('sf.statusOn', { date: formatDateTime(s.enabledAt) })
              : t('sf.statusOff')}
          </StatusBadge>
          {s?.enabled ? (
            <span className="text-muted">{t('sf.recoveryLeft', { count: s.recoveryCodesLeft })}</span>
          ) : null}
        </p>
        {start.isError ? <Notice tone="error">{errorMessage(start.error)}</Notice> : null}
        <div className="flex flex-wrap gap-2">
          {s && !s.enabled ? (
            <Button variant="primary" size="sm" busy={start.isPending} onClick={() => open('enrol')}>
              {t('sf.enable')}
            </Button>
          ) : null}
          {s?.enabled ? (
            <>
              <Button variant="secondary" size="sm" onClick={() => open('regenerate')}>
                {t('sf.regenerate')}
              </Button>
              <Button variant="danger" size="sm" onClick={() => open('disable')}>
                {t('sf.disable')}
              </Button>
            </>
          ) : null}
        </div>
      </div>

      <Modal
        open={step !== null}
        title={
          step === 'enrol'
            ? t('sf.enrolTitle')
            : step === 'disable'
              ? t('sf.disableTitle')
              : t('sf.regenerateTitle')
        }
        onClose={() => setStep(null)}
        busy={submit.isPending}
        onSubmit={() => {
          if (step === 'enrol')
            void codeForm.handleSubmit((v) => submit.mutate({ s: step, body: toCodeBody(v) }))();
          else if (step) submit.mutate({ s: step });
        }}
        footer={
          <>
            <Button
              type="button"
              variant="secondary"
              onClick={() => setStep(null)}
              disabled={submit.isPending}
            >
              {t('common.cancel')}
            </Button>
            <Button type="submit" variant={step === 'disable' ? 'danger' : 'primary'} busy={submit.isPending}>
              {step === 'disable' ? t('sf.disable') : t('sf.confirm')}
            </Button>
          </>
        }
      >
        <div className="flex flex-col gap-4">
          {step === 'enrol' && setup ? (
            <>
              <p className="text-sm text-muted">{t('sf.scan')}</p>
              <img
                src={setup.qr}
                alt={t('sf.qrAlt')}
                width={192}
                height={192}
                className="mx-auto size-48 rounded bg-white"
              />
              <div className="flex items-center gap-2">
                <span className="text-sm text-muted">{t('sf.manualKey')}</span>
                <code className="min-w-0 break-all font-mono text-sm" data-testid="manual-key">
                  {setup.secret}
                </code>
                <CopyButton value={setup.secret} />
              </div>
            </>
          ) : null}
          {step === 'regenerate' ? <p className="text-sm text-muted">{t('sf.regenerateText')}</p> : null}
          {step === 'disable' ? <p className="text-sm text-muted">{t('sf.disableText')}</p> : null}
          {step === 'enrol' ? (
            <FormField label={t('sf.code')} error={fieldErrorText(t, codeError)}>
              <Input
                autoComplete="one-time-code"
                inputMode="numeric"
                data-autofocus
                maxLength={SECOND_FACTOR_CODE_MAX}
                {...codeForm.register('code')}
              />
            </FormField>
          ) : null}
          {submit.isError ? (
            <Notice tone="error" title={t('sf.failed')}>
              {errorMessage(submit.error)}
            </Notice>
          ) : null}
        </div>
      </Modal>

      <Modal
        open={codes !== null}
        title={t('sf.recoveryTitle')}
        onClose={() => setCodes(null)}
        footer={
          <>
            <CopyButton value={(codes ?? []).join('\n')} label={t('sf.copyAll')} />
            <Button type="button" variant="secondary" onClick={() => download(codes ?? [])}>
              {t('sf.download')}
            </Button>
            <Button type="button" variant="primary" onClick={() => setCodes(null)}>
              {t('sf.done')}
            </Button>
          </>
        }
      >
        <p className="mb-3 text-sm text-muted">{t('sf.recoveryText')}</p>
        <ul className="grid grid-cols-2 gap-2 font-mono text-sm" data-testid="recovery-codes">
          {(codes ?? []).map((c) => (
            <li key={c}>{c}</li>
          ))}
        </ul>
      </Modal>
    </Card>
  );
}
