import { LockSimBody, SIM_LOCK_REASON_MAX, UnlockSimBody } from '@simdock/contract';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../api/client.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Input, Select } from '../../components/Input.tsx';
import { type MessageKey, useI18n } from '../../i18n/index.tsx';
import { bodyResolver, fieldErrorText } from '../../lib/forms.ts';
import { useLockSimMutation, useUnlockSimMutation } from './api.ts';
import { simText } from './sim-text.ts';
import { type LockValues, lockBody, type SimDialogProps } from './sims.ts';

/** Durations offered for a manual lock; '' = until unlocked. */
const LOCK_DURATIONS: { minutes: string; label: MessageKey }[] = [
  { minutes: '', label: 'gateways.lockForever' },
  { minutes: '15', label: 'gateways.lock15m' },
  { minutes: '60', label: 'gateways.lock1h' },
  { minutes: '1440', label: 'gateways.lock24h' },
  { minutes: '10080', label: 'gateways.lock7d' },
];

/** Lock (with a reason and a duration) or unlock (with a reason) one SIM; both are audited. */
export function LockSimDialog({
  deviceKind,
  gatewayId,
  sim,
  unlock,
  onClose,
  onDone,
}: SimDialogProps & { unlock: boolean }) {
  const { t } = useI18n();
  const lockMutation = useLockSimMutation();
  const unlockMutation = useUnlockSimMutation();
  const mutation = unlock ? unlockMutation : lockMutation;
  const toBody = (v: LockValues) => lockBody(gatewayId, sim.port, v, unlock);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LockValues>({
    defaultValues: { reason: '', minutes: '' },
    resolver: bodyResolver(unlock ? UnlockSimBody : LockSimBody, toBody, {
      reason: 'gateways.lockReasonRequired',
    }),
  });

  const submit = handleSubmit((v) => {
    const done = { onSuccess: (res: { msg: string }) => onDone(res.msg, true) };
    if (unlock) unlockMutation.mutate(toBody(v), done);
    else lockMutation.mutate(toBody(v), done);
  });

  return (
    <FormDialog
      title={unlock ? simText(t, deviceKind, sim.port, 'unlock') : simText(t, deviceKind, sim.port, 'lock')}
      intro={t(unlock ? 'gateways.unlockText' : 'gateways.lockText')}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t(unlock ? 'gateways.unlock' : 'gateways.lock')}
      pending={mutation.isPending}
      pendingLabel={t(unlock ? 'gateways.unlocking' : 'gateways.locking')}
      size="sm"
      error={mutation.isError ? errorMessage(mutation.error) : undefined}
      errorTitle={t(unlock ? 'gateways.unlockFailed' : 'gateways.lockFailed')}
    >
      <div className="flex flex-col gap-4">
        <FormField
          label={t('gateways.lockReason')}
          hint={t('gateways.lockReasonHint')}
          error={fieldErrorText(t, errors.reason)}
        >
          <Input autoComplete="off" maxLength={SIM_LOCK_REASON_MAX} {...register('reason')} />
        </FormField>
        {unlock ? null : (
          <FormField label={t('gateways.lockDuration')}>
            <Select {...register('minutes')}>
              {LOCK_DURATIONS.map((d) => (
                <option key={d.minutes} value={d.minutes}>
                  {t(d.label)}
                </option>
              ))}
            </Select>
          </FormField>
        )}
      </div>
    </FormDialog>
  );
}
