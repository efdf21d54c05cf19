import { SimUssdBody } from '@simdock/contract';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../api/client.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Input } from '../../components/Input.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { bodyResolver, fieldErrorText } from '../../lib/forms.ts';
import { useSimUssdMutation } from './api.ts';
import { simText } from './sim-text.ts';
import type { SimDialogProps } from './sims.ts';

interface UssdValues {
  code: string;
}

/** The code a balance check starts with: the last one sent from this SIM, else the most common. */
export const DEFAULT_BALANCE_CODE = '*100#';

/**
 * Check balance: sends a USSD code from the SIM and shows the network's reply (a toast, and on the
 * SIM's row, where it is kept). The device may take up to 40 s to answer.
 */
export function UssdDialog({ deviceKind, gatewayId, sim, onClose, onDone }: SimDialogProps) {
  const { t } = useI18n();
  const mutation = useSimUssdMutation();
  const toBody = (v: UssdValues) => ({ gatewayId, port: sim.port, code: v.code.trim() });
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<UssdValues>({
    defaultValues: { code: sim.ussd?.code ?? DEFAULT_BALANCE_CODE },
    resolver: bodyResolver(SimUssdBody, toBody, { code: 'gateways.ussdCodeInvalid' }),
  });

  const submit = handleSubmit((v) =>
    mutation.mutate(toBody(v), { onSuccess: (res) => onDone(res.msg, true) }),
  );

  return (
    <FormDialog
      title={simText(t, deviceKind, sim.port, 'ussd')}
      intro={t('gateways.ussdText')}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t('gateways.ussdSend')}
      pending={mutation.isPending}
      pendingLabel={t('gateways.ussdSending')}
      size="sm"
      error={mutation.isError ? errorMessage(mutation.error) : undefined}
      errorTitle={t('gateways.ussdFailed')}
    >
      <FormField
        label={t('gateways.ussdCode')}
        hint={t('gateways.ussdCodeHint')}
        error={fieldErrorText(t, errors.code)}
      >
        <Input
          autoComplete="off"
          inputMode="tel"
          maxLength={32}
          className="font-mono"
          {...register('code')}
        />
      </FormField>
    </FormDialog>
  );
}
