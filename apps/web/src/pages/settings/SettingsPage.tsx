import {
  MASS_SEND_MAX_RECIPIENTS,
  MAX_MSG_PER_DAY_CAP,
  SIM_COOLDOWN_MINUTES_CAP,
  SIM_LOCK_AFTER_FAILURES_CAP,
  SIM_MAX_SMS_PER_DAY_CAP,
  SIM_MAX_SMS_PER_MONTH_CAP,
} from '@simdock/contract';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Button, Card, FormField, Input, Notice, PageHeader, QueryState } from '../../components/index.ts';
import { type MessageKey, useI18n } from '../../i18n/index.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useAdminSettings, useSaveSettings } from './api.ts';

interface Values {
  maxBatchSendSms: number;
  maxMsgPerDay: number;
  simMaxSmsPerDay: number;
  simMaxSmsPerMonth: number;
  simLockAfterFailures: number;
  simCooldownMinutes: number;
}

const wholeNumber = (v: number, max: number) => Number.isInteger(v) && v >= 0 && v <= max;

/** The SIM health settings (saved with the limits; the gateways module applies them). */
const SIM_FIELDS: {
  name: keyof Values;
  label: MessageKey;
  hint: MessageKey;
  invalid: MessageKey;
  max: number;
}[] = [
  {
    name: 'simMaxSmsPerDay',
    label: 'settings.simPerDay',
    hint: 'settings.simPerDayHint',
    invalid: 'messaging.simMaxSmsPerDayInvalid',
    max: SIM_MAX_SMS_PER_DAY_CAP,
  },
  {
    name: 'simMaxSmsPerMonth',
    label: 'settings.simPerMonth',
    hint: 'settings.simPerMonthHint',
    invalid: 'messaging.simMaxSmsPerMonthInvalid',
    max: SIM_MAX_SMS_PER_MONTH_CAP,
  },
  {
    name: 'simLockAfterFailures',
    label: 'settings.simLockAfter',
    hint: 'settings.simLockAfterHint',
    invalid: 'messaging.simLockAfterFailuresInvalid',
    max: SIM_LOCK_AFTER_FAILURES_CAP,
  },
  {
    name: 'simCooldownMinutes',
    label: 'settings.simCooldown',
    hint: 'settings.simCooldownHint',
    invalid: 'messaging.simCooldownMinutesInvalid',
    max: SIM_COOLDOWN_MINUTES_CAP,
  },
];

const DEFAULTS: Values = {
  maxBatchSendSms: 0,
  maxMsgPerDay: 0,
  simMaxSmsPerDay: 0,
  simMaxSmsPerMonth: 0,
  simLockAfterFailures: 5,
  simCooldownMinutes: 60,
};

/**
 * /settings (Admin9, docs/product.md): Max Batch Send SMS and Max Messages Per Day, Save Changes, then
 * '✅ Success!' or '❌ Error saving settings'. 0 switches sending off (the sending page says so).
 */
export function SettingsPage() {
  const { t } = useI18n();
  const settings = useAdminSettings();
  const save = useSaveSettings();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors, isDirty },
  } = useForm<Values>({ defaultValues: DEFAULTS });

  useEffect(() => {
    const d = settings.data;
    if (d && !isDirty)
      reset({
        maxBatchSendSms: d.maxBatchSendSms,
        maxMsgPerDay: d.maxMsgPerDay,
        simMaxSmsPerDay: d.simMaxSmsPerDay,
        simMaxSmsPerMonth: d.simMaxSmsPerMonth,
        simLockAfterFailures: d.simLockAfterFailures,
        simCooldownMinutes: d.simCooldownMinutes,
      });
  }, [settings.data, isDirty, reset]);

  const onSubmit = handleSubmit((v) =>
    save.mutate(
      {
        MaxBatchSendSms: v.maxBatchSendSms,
        MaxMsgPerDay: v.maxMsgPerDay,
        SimMaxSmsPerDay: v.simMaxSmsPerDay,
        SimMaxSmsPerMonth: v.simMaxSmsPerMonth,
        SimLockAfterFailures: v.simLockAfterFailures,
        SimCooldownMinutes: v.simCooldownMinutes,
      },
      { onSuccess: () => reset(v) },
    ),
  );

  return (
    <>
      <PageHeader title={t('settings.title')} subtitle={t('settings.subtitle')} />
      <Card className="max-w-xl">
        <QueryState query={settings} errorTitle={t('settings.loadFailed')}>
          {(current) => (
            <form
              onSubmit={onSubmit}
              noValidate
              className="flex flex-col gap-4"
              aria-label={t('settings.title')}
            >
              <FormField
                label={t('settings.maxBatch')}
                hint={t('settings.maxBatchHint')}
                error={errors.maxBatchSendSms?.message}
              >
                <Input
                  type="number"
                  inputMode="numeric"
                  min={0}
                  step={1}
                  {...register('maxBatchSendSms', {
                    valueAsNumber: true,
                    validate: (v) =>
                      wholeNumber(v, MASS_SEND_MAX_RECIPIENTS) ||
                      t('messaging.maxBatchSendSmsInvalid', { max: MASS_SEND_MAX_RECIPIENTS }),
                  })}
                />
              </FormField>
              <FormField
                label={t('settings.maxPerDay')}
                hint={t('settings.maxPerDayHint')}
                error={errors.maxMsgPerDay?.message}
              >
                <Input
                  type="number"
                  inputMode="numeric"
                  min={0}
                  step={1}
                  {...register('maxMsgPerDay', {
                    valueAsNumber: true,
                    validate: (v) =>
                      wholeNumber(v, MAX_MSG_PER_DAY_CAP) ||
                      t('messaging.maxMsgPerDayInvalid', { max: MAX_MSG_PER_DAY_CAP }),
                  })}
                />
              </FormField>
              <fieldset className="mt-2 flex flex-col gap-4 border-t border-line pt-4">
                <legend className="float-left mb-1 w-full">
                  <span className="block text-[15px] font-semibold text-fg">{t('settings.simTitle')}</span>
                  <span className="mt-0.5 block text-[13px] text-muted">{t('settings.simText')}</span>
                </legend>
                {SIM_FIELDS.map((f) => (
                  <FormField key={f.name} label={t(f.label)} hint={t(f.hint)} error={errors[f.name]?.message}>
                    <Input
                      type="number"
                      inputMode="numeric"
                      min={0}
                      step={1}
                      {...register(f.name, {
                        valueAsNumber: true,
                        validate: (v) => wholeNumber(v, f.max) || t(f.invalid, { max: f.max }),
                      })}
                    />
                  </FormField>
                ))}
              </fieldset>
              {save.isSuccess && !isDirty ? <Notice tone="success">{t('settings.saved')}</Notice> : null}
              {save.isError ? <Notice tone="error">{t('settings.saveFailed')}</Notice> : null}
              {current.updatedAt ? (
                <p className="text-xs text-muted">
                  {t('settings.lastChanged', {
                    who: current.updatedBy ?? '—',
                    when: formatDateTime(current.updatedAt),
                  })}
                </p>
              ) : null}
              <div>
                <Button
                  type="submit"
                  variant="primary"
                  busy={save.isPending}
                  busyLabel={t('settings.saving')}
                >
                  {t('settings.save')}
                </Button>
              </div>
            </form>
          )}
        </QueryState>
      </Card>
    </>
  );
}
