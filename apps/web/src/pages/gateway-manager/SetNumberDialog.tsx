import { type DeviceKind, normalizePhoneNumber, TEXT_LIMITS } from '@simdock/contract';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../api/client.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Input } from '../../components/Input.tsx';
import { type MessageKey, useI18n } from '../../i18n/index.tsx';
import { fieldErrorText, keyResolver } from '../../lib/forms.ts';
import { useSetSimNumberMutation } from './api.ts';
import { simText } from './sim-text.ts';
import type { SimDialogProps } from './sims.ts';

/** Where the number is kept: an Ejoin box stores it too; a phone and a GoIP box are not written to. */
const SET_NUMBER_TEXT: Record<DeviceKind, MessageKey> = {
  ejoin: 'gateways.setNumberText',
  smsgate: 'gateways.setNumberTextPhone',
  goip: 'gateways.setNumberTextGoip',
};

/**
 * The SIM's number as the admin knows it. The contract's `normalizePhoneNumber` is the server's rule:
 * spaces, dots, dashes and brackets dropped, then 3 to 20 digits with an optional leading +.
 */
export function SetNumberDialog({ deviceKind, gatewayId, sim, onClose, onDone }: SimDialogProps) {
  const { t } = useI18n();
  const mutation = useSetSimNumberMutation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<{ number: string }>({
    defaultValues: { number: sim.number ?? '' },
    resolver: keyResolver((v: { number: string }) => ({
      number: normalizePhoneNumber(v.number) === undefined ? 'gateways.numberInvalid' : undefined,
    })),
  });

  const submit = handleSubmit((v) =>
    mutation.mutate(
      { gatewayId, port: sim.port, number: normalizePhoneNumber(v.number)! },
      { onSuccess: (res) => onDone(res.msg, res.deviceUpdated) },
    ),
  );

  return (
    <FormDialog
      title={simText(t, deviceKind, sim.port, 'setNumber')}
      intro={t(SET_NUMBER_TEXT[deviceKind])}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t('common.save')}
      pending={mutation.isPending}
      size="sm"
      error={mutation.isError ? errorMessage(mutation.error) : undefined}
      errorTitle={t('gateways.saveFailed')}
    >
      <FormField
        label={t('gateways.number')}
        hint={t('gateways.numberHint')}
        error={fieldErrorText(t, errors.number)}
      >
        <Input
          inputMode="tel"
          autoComplete="off"
          className="font-mono"
          maxLength={TEXT_LIMITS.phoneNumber}
          {...register('number')}
        />
      </FormField>
    </FormDialog>
  );
}
