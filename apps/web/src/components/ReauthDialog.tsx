import { endpoints } from '@simdock/contract';
import { useEffect, useRef, useState } from 'react';
import { call, errorMessage } from '../api/client.ts';
import { rememberReauth, setReauthPrompter } from '../api/reauth.ts';
import { useI18n } from '../i18n/index.tsx';
import { Button } from './Button.tsx';
import { FormField } from './FormField.tsx';
import { Input, PasswordInput } from './Input.tsx';
import { Modal } from './Modal.tsx';
import { Notice } from './Notice.tsx';

/**
 * The one re-authentication dialog of the signed-in app. A call the server refuses with
 * `reauth_required` (turning two-factor on or off, recovery codes, API keys, webhooks) opens it
 * (api/reauth.ts): the password, and a code when two-factor authentication is on; then the call is
 * sent again. Cancel leaves the call refused.
 */
export function ReauthDialog() {
  const { t } = useI18n();
  const [open, setOpen] = useState(false);
  const [needsCode, setNeedsCode] = useState(false);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const settle = useRef<((ok: boolean) => void) | null>(null);

  useEffect(() => {
    setReauthPrompter(
      () =>
        new Promise<boolean>((resolve) => {
          settle.current = resolve;
          setPassword('');
          setCode('');
          setError(null);
          setNeedsCode(false);
          setOpen(true);
          // Whether to ask for a code too: the factor's state (a failure leaves the field to the server's answer).
          call(endpoints.secondFactor.status).then(
            (s) => setNeedsCode(s.enabled),
            () => {},
          );
        }),
    );
    return () => setReauthPrompter(null);
  }, []);

  const finish = (ok: boolean) => {
    setOpen(false);
    settle.current?.(ok);
    settle.current = null;
  };

  const submit = async () => {
    if (!password) {
      setError(t('reauth.passwordRequired'));
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const res = await call(endpoints.secondFactor.reauth, {
        password,
        ...(needsCode || code ? { code } : {}),
      });
      rememberReauth(res.reauth, res.expiresIn);
      finish(true);
    } catch (err) {
      if (err && typeof err === 'object' && 'field' in err && err.field === 'code') setNeedsCode(true);
      setError(errorMessage(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('reauth.title')}
      onClose={() => finish(false)}
      busy={busy}
      size="sm"
      onSubmit={() => void submit()}
      footer={
        <>
          <Button type="button" onClick={() => finish(false)} disabled={busy}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" variant="primary" busy={busy} busyLabel={t('reauth.checking')}>
            {t('reauth.confirm')}
          </Button>
        </>
      }
    >
      <div className="flex flex-col gap-4" data-testid="reauth-dialog">
        <p className="text-sm text-muted">{t(needsCode ? 'reauth.textWithCode' : 'reauth.text')}</p>
        <FormField label={t('reauth.password')}>
          <PasswordInput
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            data-autofocus
          />
        </FormField>
        {needsCode ? (
          <FormField label={t('sf.codeOrRecovery')}>
            <Input
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              maxLength={64}
            />
          </FormField>
        ) : null}
        {error ? <Notice tone="error">{error}</Notice> : null}
      </div>
    </Modal>
  );
}
