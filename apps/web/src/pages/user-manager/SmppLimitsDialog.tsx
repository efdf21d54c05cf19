import { type AdminUser, SMPP_BIND_LIMIT_MAX, SMPP_RATE_MAX } from '@simdock/contract';
import { useEffect, useState } from 'react';
import { errorMessage } from '../../api/client.ts';
import { FormDialog, FormField, Input } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { useSetSmppLimitsMutation, useSmppLimitsQuery } from './api.ts';

export interface SmppLimitsDialogProps {
  user: AdminUser;
  onClose: () => void;
  onSaved: () => void;
}

const whole = (v: string, max: number) => /^\d+$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= max;

/** 'SMPP limits' of a user (docs/screens.md): messages per second and simultaneous binds, per credential. */
export function SmppLimitsDialog({ user, onClose, onSaved }: SmppLimitsDialogProps) {
  const { t } = useI18n();
  const current = useSmppLimitsQuery(user.id);
  const save = useSetSmppLimitsMutation();
  const [rate, setRate] = useState('');
  const [binds, setBinds] = useState('');
  const [checked, setChecked] = useState(false);
  // The fields fill in once the current values arrive (not over what the admin typed since).
  useEffect(() => {
    if (!current.data) return;
    setRate((v) => v || String(current.data.ratePerSecond));
    setBinds((v) => v || String(current.data.bindLimit));
  }, [current.data]);

  const rateOk = whole(rate, SMPP_RATE_MAX);
  const bindsOk = whole(binds, SMPP_BIND_LIMIT_MAX);
  const submit = () => {
    setChecked(true);
    if (!rateOk || !bindsOk) return;
    save.mutate(
      { userId: user.id, ratePerSecond: Number(rate), bindLimit: Number(binds) },
      { onSuccess: onSaved },
    );
  };
  const error = save.isError
    ? errorMessage(save.error)
    : current.isError
      ? errorMessage(current.error)
      : undefined;

  return (
    <FormDialog
      title={t('users.smppTitle', { name: user.username })}
      intro={t('users.smppIntro')}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t('users.smppSave')}
      pending={save.isPending}
      submitDisabled={!current.data}
      error={error}
      size="sm"
    >
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <FormField
          label={t('users.smppRate')}
          hint={t('users.smppRateHint', { max: SMPP_RATE_MAX })}
          error={checked && !rateOk ? t('users.smppRateError', { max: SMPP_RATE_MAX }) : undefined}
        >
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            max={SMPP_RATE_MAX}
            value={rate}
            onChange={(e) => setRate(e.target.value)}
          />
        </FormField>
        <FormField
          label={t('users.smppBinds')}
          hint={t('users.smppBindsHint', { max: SMPP_BIND_LIMIT_MAX })}
          error={checked && !bindsOk ? t('users.smppBindsError', { max: SMPP_BIND_LIMIT_MAX }) : undefined}
        >
          <Input
            type="number"
            inputMode="numeric"
            min={1}
            max={SMPP_BIND_LIMIT_MAX}
            value={binds}
            onChange={(e) => setBinds(e.target.value)}
          />
        </FormField>
      </div>
    </FormDialog>
  );
}
