import { zodResolver } from '@hookform/resolvers/zod';
import { UpdateSettingsBody } from '@simdock/contract';
import { CircleCheck, CircleX } from 'lucide-react';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import {
  Button,
  Card,
  FormField,
  Input,
  MoneyInput,
  Notice,
  PageHeader,
  QueryState,
} from '../../components/index.ts';
import { type MessageKey, useI18n } from '../../i18n/index.tsx';
import { formatDateTime, formatMoneyInput } from '../../lib/format.ts';
import { fieldErrorText } from '../../lib/forms.ts';
import { useAdminSettings, useSaveSettings } from './api.ts';
import { MessageCountries } from './MessageCountries.tsx';

/**
 * The spec's results start with an emoji mark ('✅ Success!', '❌ Error saving settings'), which shows as
 * an empty box where no emoji font is installed: the notice draws the mark as its icon, and the
 * character stays in the text for screen readers only, so the text is still the spec's.
 */
function SpecResult({ text }: { text: string }) {
  const mark = /^(✅|❌)\uFE0F?\s*/u.exec(text);
  if (!mark) return text;
  return (
    <>
      <span className="sr-only">{mark[1]} </span>
      {text.slice(mark[0].length)}
    </>
  );
}

/** The form's values are the save payload: the contract's schema checks them as the server does. */
type Values = z.input<typeof UpdateSettingsBody>;

/** The SIM health settings (saved with the limits; the gateways module applies them). */
const SIM_FIELDS: { name: keyof Values; label: MessageKey; hint: MessageKey }[] = [
  { name: 'SimMaxSmsPerDay', label: 'settings.simPerDay', hint: 'settings.simPerDayHint' },
  { name: 'SimMaxSmsPerMonth', label: 'settings.simPerMonth', hint: 'settings.simPerMonthHint' },
  { name: 'SimLockAfterFailures', label: 'settings.simLockAfter', hint: 'settings.simLockAfterHint' },
  { name: 'SimCooldownMinutes', label: 'settings.simCooldown', hint: 'settings.simCooldownHint' },
  { name: 'SimsKeptForSendingPercent', label: 'settings.simsKept', hint: 'settings.simsKeptHint' },
];

const DEFAULTS: Values = {
  MaxBatchSendSms: 0,
  MaxMsgPerDay: 0,
  SimMaxSmsPerDay: 0,
  SimMaxSmsPerMonth: 0,
  SimLockAfterFailures: 5,
  SimCooldownMinutes: 60,
  SimsKeptForSendingPercent: 20,
  SmsPricePerSegment: '0',
  MmsPrice: '0',
};

/** Prices are typed as decimal text and sent as such: "0.0075" stays exact (no float on the way). */
const PRICE_FIELDS: { name: 'SmsPricePerSegment' | 'MmsPrice'; label: MessageKey; hint: MessageKey }[] = [
  { name: 'SmsPricePerSegment', label: 'settings.smsPrice', hint: 'settings.smsPriceHint' },
  { name: 'MmsPrice', label: 'settings.mmsPrice', hint: 'settings.mmsPriceHint' },
];

/**
 * /settings (Admin9, docs/product.md): Max Batch Send SMS and Max Messages Per Day, the SIM health
 * settings, the message prices (USD per SMS segment and per MMS, up to 4 decimals), Save Changes,
 * then '✅ Success!' or '❌ Error saving settings'. 0 switches sending off (the sending page says so).
 * Below, the message prices by destination country (saved one change at a time).
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
  } = useForm<Values, unknown, z.output<typeof UpdateSettingsBody>>({
    defaultValues: DEFAULTS,
    resolver: zodResolver(UpdateSettingsBody),
  });

  useEffect(() => {
    const d = settings.data;
    if (d && !isDirty)
      reset({
        MaxBatchSendSms: d.maxBatchSendSms,
        MaxMsgPerDay: d.maxMsgPerDay,
        SimMaxSmsPerDay: d.simMaxSmsPerDay,
        SimMaxSmsPerMonth: d.simMaxSmsPerMonth,
        SimLockAfterFailures: d.simLockAfterFailures,
        SimCooldownMinutes: d.simCooldownMinutes,
        SimsKeptForSendingPercent: d.simsKeptForSendingPercent,
        SmsPricePerSegment: formatMoneyInput(d.smsPricePerSegment, 4),
        MmsPrice: formatMoneyInput(d.mmsPrice, 4),
      });
  }, [settings.data, isDirty, reset]);

  const onSubmit = handleSubmit((body) => save.mutate(body, { onSuccess: () => reset(body) }));
  const number = (name: keyof Values) => register(name, { valueAsNumber: true });

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
                error={fieldErrorText(t, errors.MaxBatchSendSms)}
              >
                <Input type="number" inputMode="numeric" min={0} step={1} {...number('MaxBatchSendSms')} />
              </FormField>
              <FormField
                label={t('settings.maxPerDay')}
                hint={t('settings.maxPerDayHint')}
                error={fieldErrorText(t, errors.MaxMsgPerDay)}
              >
                <Input type="number" inputMode="numeric" min={0} step={1} {...number('MaxMsgPerDay')} />
              </FormField>
              <fieldset className="mt-2 flex flex-col gap-4 border-t border-line pt-4">
                <legend className="float-left mb-1 w-full">
                  <span className="block text-[15px] font-semibold text-fg">{t('settings.simTitle')}</span>
                  <span className="mt-0.5 block text-[13px] text-muted">{t('settings.simText')}</span>
                </legend>
                {SIM_FIELDS.map((f) => (
                  <FormField
                    key={f.name}
                    label={t(f.label)}
                    hint={t(f.hint)}
                    error={fieldErrorText(t, errors[f.name])}
                  >
                    <Input type="number" inputMode="numeric" min={0} step={1} {...number(f.name)} />
                  </FormField>
                ))}
              </fieldset>
              <fieldset className="mt-2 flex flex-col gap-4 border-t border-line pt-4">
                <legend className="float-left mb-1 w-full">
                  <span className="block text-[15px] font-semibold text-fg">{t('settings.pricesTitle')}</span>
                  <span className="mt-0.5 block text-[13px] text-muted">{t('settings.pricesText')}</span>
                </legend>
                {PRICE_FIELDS.map((f) => (
                  <FormField
                    key={f.name}
                    label={t(f.label)}
                    hint={t(f.hint)}
                    error={fieldErrorText(t, errors[f.name])}
                  >
                    <MoneyInput decimals={4} {...register(f.name)} />
                  </FormField>
                ))}
              </fieldset>
              {save.isSuccess && !isDirty ? (
                <Notice tone="success" icon={CircleCheck}>
                  <SpecResult text={t('settings.saved')} />
                </Notice>
              ) : null}
              {save.isError ? (
                <Notice tone="error" icon={CircleX}>
                  <SpecResult text={t('settings.saveFailed')} />
                </Notice>
              ) : null}
              <p className="text-xs text-muted">
                {current.updatedAt
                  ? t('settings.lastChanged', {
                      who: current.updatedBy ?? '—',
                      when: formatDateTime(current.updatedAt),
                    })
                  : t('settings.neverChanged')}
              </p>
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
      <div className="mt-5">
        <MessageCountries />
      </div>
    </>
  );
}
