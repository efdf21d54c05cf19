import { SERVICE_DEFAULTS, type Service, TEXT_LIMITS } from '@simdock/contract';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../api/client.ts';
import { FormDialog, FormField, Input, MoneyInput, Switch } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { fieldErrorText } from '../../lib/forms.ts';
import { useSaveServiceMutation } from './api.ts';
import {
  emptyServiceForm,
  formFromService,
  type ServiceFormValues,
  serverFieldError,
  serviceFormResolver,
  toServiceInput,
} from './service-form.ts';

export interface ServiceFormModalProps {
  /** The service to edit; none to add one. */
  service?: Service;
  onClose: () => void;
  onSaved: (saved: Service, created: boolean) => void;
}

/**
 * 'Add Service' / 'Edit Service' (docs/product.md#screens-and-routes): the fields, the rule messages under
 * them, Create/Update.
 */
export function ServiceFormModal({ service, onClose, onSaved }: ServiceFormModalProps) {
  const { t } = useI18n();
  const save = useSaveServiceMutation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ServiceFormValues>({
    defaultValues: service ? formFromService(service) : emptyServiceForm(),
    resolver: serviceFormResolver,
  });

  const submit = handleSubmit((values) =>
    save.mutate(toServiceInput(values, service?.id), {
      onSuccess: (saved) => onSaved(saved, !service),
      onError: (err) => {
        const onField = serverFieldError(err);
        if (onField)
          setError(onField.field, { type: onField.type, message: onField.message }, { shouldFocus: true });
      },
    }),
  );
  // Errors the server did not pin on a field (network, permissions, a missing service) show as a banner.
  const bannerError = save.isError && !serverFieldError(save.error) ? errorMessage(save.error) : undefined;
  const err = (field: keyof ServiceFormValues) => fieldErrorText(t, errors[field]);

  return (
    <FormDialog
      size="lg"
      title={service ? t('services.editTitle') : t('services.addTitle')}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={service ? t('services.update') : t('services.create')}
      pending={save.isPending}
      error={bannerError}
    >
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <FormField label={t('services.fieldName')} error={err('name')}>
          <Input autoComplete="off" maxLength={TEXT_LIMITS.serviceName} {...register('name')} />
        </FormField>
        <FormField label={t('services.fieldCode')} hint={t('services.codeHint')} error={err('code')}>
          <Input
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            maxLength={TEXT_LIMITS.serviceCode}
            {...register('code')}
          />
        </FormField>
        <FormField label={t('services.fieldDescription')} className="sm:col-span-2">
          <Input autoComplete="off" maxLength={TEXT_LIMITS.serviceDescription} {...register('description')} />
        </FormField>
        <div className="grid grid-cols-1 gap-4 sm:col-span-2 sm:grid-cols-3">
          <FormField label={t('services.fieldPrice')} error={err('price')}>
            <MoneyInput decimals={2} {...register('price')} />
          </FormField>
          <FormField label={t('services.fieldStock')} hint={t('services.stockHint')} error={err('stock')}>
            <Input type="number" inputMode="numeric" step="1" className="tabular" {...register('stock')} />
          </FormField>
          <FormField
            label={t('services.fieldRentTime')}
            hint={t('services.rentTimeHint')}
            error={err('rentTimeMinutes')}
          >
            <Input
              type="number"
              inputMode="numeric"
              step="1"
              className="tabular"
              {...register('rentTimeMinutes')}
            />
          </FormField>
        </div>
        <FormField
          label={t('services.fieldPattern')}
          hint={t('services.patternHint', { default: SERVICE_DEFAULTS.pattern })}
          error={err('pattern')}
          className="sm:col-span-2"
        >
          <Input
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            maxLength={TEXT_LIMITS.servicePattern}
            {...register('pattern')}
          />
        </FormField>
        <FormField
          label={t('services.fieldTextContains')}
          hint={t('services.textContainsHint')}
          className="sm:col-span-2"
        >
          <Input autoComplete="off" maxLength={TEXT_LIMITS.textContains} {...register('textContains')} />
        </FormField>
        <Switch
          label={t('services.fieldRepeatable')}
          hint={t('services.repeatableHint')}
          {...register('isRepeatable')}
        />
        <Switch
          label={t('services.fieldEnabled')}
          hint={t('services.enabledHint')}
          {...register('isEnable')}
        />
      </div>
    </FormDialog>
  );
}
