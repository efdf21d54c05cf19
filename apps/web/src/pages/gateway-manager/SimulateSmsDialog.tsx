import { SimulateSmsBody, TEXT_LIMITS } from '@simdock/contract';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../api/client.ts';
import { FormDialog } from '../../components/FormDialog.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Input, Textarea } from '../../components/Input.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { bodyResolver, fieldErrorText } from '../../lib/forms.ts';
import { useSimulateSmsMutation } from './api.ts';
import { simText } from './sim-text.ts';
import { type SimDialogProps, type SimulateValues, simulateBody } from './sims.ts';

/** Simulate an incoming SMS on one SIM (as if the device had pushed it). */
export function SimulateSmsDialog({ deviceKind, gatewayId, sim, onClose, onDone }: SimDialogProps) {
  const { t } = useI18n();
  const mutation = useSimulateSmsMutation();
  const toBody = (v: SimulateValues) => simulateBody(gatewayId, sim.port, v);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<SimulateValues>({
    defaultValues: { from: 'Verify', text: '' },
    resolver: bodyResolver(SimulateSmsBody, toBody, {
      from: 'gateways.fromRequired',
      text: 'gateways.textRequired',
    }),
  });

  const submit = handleSubmit((v) =>
    mutation.mutate(toBody(v), { onSuccess: (res) => onDone(res.msg, true) }),
  );

  return (
    <FormDialog
      title={simText(t, deviceKind, sim.port, 'simulate')}
      intro={t('gateways.simulateText')}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t('gateways.simulate')}
      pending={mutation.isPending}
      pendingLabel={t('gateways.simulating')}
      error={mutation.isError ? errorMessage(mutation.error) : undefined}
      errorTitle={t('gateways.simulateFailed')}
    >
      <div className="flex flex-col gap-4">
        <FormField label={t('gateways.from')} error={fieldErrorText(t, errors.from)}>
          <Input autoComplete="off" maxLength={TEXT_LIMITS.smsSender} {...register('from')} />
        </FormField>
        <FormField label={t('gateways.text')} error={fieldErrorText(t, errors.text)}>
          <Textarea
            maxLength={TEXT_LIMITS.smsText}
            placeholder={t('gateways.textPlaceholder')}
            {...register('text')}
            onKeyDown={(e) => {
              // Ctrl/Cmd+Enter sends, as Enter does in the one-line fields.
              if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                e.preventDefault();
                if (!mutation.isPending) void submit();
              }
            }}
          />
        </FormField>
      </div>
    </FormDialog>
  );
}
