import { MASS_SEND_MAX_RECIPIENTS, MAX_MSG_PER_DAY_CAP } from '@simdock/contract';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { Button, Card, FormField, Input, Notice, PageHeader, QueryState } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatDateTime } from '../../lib/format.ts';
import { useAdminSettings, useSaveSettings } from './api.ts';

interface Values {
  maxBatchSendSms: number;
  maxMsgPerDay: number;
}

const wholeNumber = (v: number, max: number) => Number.isInteger(v) && v >= 0 && v <= max;

/**
 * /settings (Admin9, spec §2, §8): Max Batch Send SMS and Max Messages Per Day, Save Changes, then
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
  } = useForm<Values>({ defaultValues: { maxBatchSendSms: 0, maxMsgPerDay: 0 } });

  useEffect(() => {
    if (settings.data && !isDirty)
      reset({ maxBatchSendSms: settings.data.maxBatchSendSms, maxMsgPerDay: settings.data.maxMsgPerDay });
  }, [settings.data, isDirty, reset]);

  const onSubmit = handleSubmit((v) =>
    save.mutate(
      { MaxBatchSendSms: v.maxBatchSendSms, MaxMsgPerDay: v.maxMsgPerDay },
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
