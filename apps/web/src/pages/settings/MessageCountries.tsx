import {
  CountryCode,
  countryFlag,
  countryName,
  type MessageCountry,
  SetMessageCountryBody,
} from '@simdock/contract';
import { Pencil, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { errorMessage } from '../../api/client.ts';
import {
  AddButton,
  Card,
  FormDialog,
  FormField,
  Input,
  MoneyInput,
  Notice,
  QueryState,
  RowActions,
  Switch,
} from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { formatMoney, formatMoneyInput } from '../../lib/format.ts';
import { bodyResolver, fieldErrorText } from '../../lib/forms.ts';
import { useMessageCountries, useSetMessageCountry } from './api.ts';

interface Values {
  country: string;
  /** Blank: the default price. */
  sms: string;
  mms: string;
  enabled: boolean;
}

/** A price field as the request sends it: blank is the default (null), else the exact text. */
const priceOrNull = (v: string) => (v.trim() === '' ? null : v.trim());
const toBody = (v: Values): SetMessageCountryBody => ({
  country: v.country,
  smsPricePerSegment: priceOrNull(v.sms),
  mmsPrice: priceOrNull(v.mms),
  enabled: v.enabled,
});

/** The dialog that adds a country or edits one (its code fixed then). */
function CountryDialog({ editing, onClose }: { editing: MessageCountry | null; onClose: () => void }) {
  const { t, lang } = useI18n();
  const save = useSetMessageCountry();
  const {
    register,
    handleSubmit,
    control,
    setValue,
    formState: { errors },
  } = useForm<Values>({
    defaultValues: editing
      ? {
          country: editing.country,
          sms: editing.smsPricePerSegment === null ? '' : formatMoneyInput(editing.smsPricePerSegment, 4),
          mms: editing.mmsPrice === null ? '' : formatMoneyInput(editing.mmsPrice, 4),
          enabled: editing.enabled,
        }
      : { country: '', sms: '', mms: '', enabled: true },
    resolver: bodyResolver<Values>(SetMessageCountryBody, toBody, {
      country: 'settings.countryInvalid',
      sms: 'settings.countryPriceInvalid',
      mms: 'settings.countryPriceInvalid',
    }),
  });
  const code = CountryCode.safeParse(useWatch({ control, name: 'country' }));
  const enabled = useWatch({ control, name: 'enabled' });
  const submit = handleSubmit((v) => save.mutate(toBody(v), { onSuccess: onClose }));
  return (
    <FormDialog
      title={editing ? t('settings.countryEditTitle') : t('settings.countryAddTitle')}
      intro={t('settings.countryDialogText')}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t('common.save')}
      pending={save.isPending}
      size="sm"
      error={save.isError ? errorMessage(save.error) : undefined}
    >
      <FormField
        label={t('settings.countryCode')}
        hint={t('settings.countryCodeHint')}
        error={fieldErrorText(t, errors.country)}
      >
        <Input
          autoComplete="off"
          maxLength={2}
          className="w-24 font-mono uppercase"
          readOnly={editing !== null}
          {...register('country')}
        />
      </FormField>
      {code.success && code.data ? (
        <p className="-mt-2 text-sm text-fg" data-testid="country-name">
          <span aria-hidden className="mr-1.5">
            {countryFlag(code.data)}
          </span>
          {countryName(code.data, lang)}
        </p>
      ) : null}
      <FormField
        label={t('settings.smsPrice')}
        hint={t('settings.countryDefaultHint')}
        error={fieldErrorText(t, errors.sms)}
      >
        <MoneyInput decimals={4} {...register('sms')} />
      </FormField>
      <FormField
        label={t('settings.mmsPrice')}
        hint={t('settings.countryDefaultHint')}
        error={fieldErrorText(t, errors.mms)}
      >
        <MoneyInput decimals={4} {...register('mms')} />
      </FormField>
      <Switch
        label={t('settings.countryEnabled')}
        checked={enabled}
        onCheckedChange={(v) => setValue('enabled', v)}
      />
    </FormDialog>
  );
}

type Save = ReturnType<typeof useSetMessageCountry>;

/** A listed country's switch: saved at once. */
function EnabledToggle({ c, name, save }: { c: MessageCountry; name: string; save: Save }) {
  const { t } = useI18n();
  return (
    <label className="inline-flex items-center gap-2">
      <input
        type="checkbox"
        role="switch"
        aria-checked={c.enabled}
        className="size-4 accent-accent"
        checked={c.enabled}
        disabled={save.isPending}
        aria-label={t('settings.countryEnabledFor', { country: name })}
        onChange={(e) => save.mutate({ country: c.country, enabled: e.target.checked })}
      />
      <span className={c.enabled ? 'text-fg' : 'text-bad'}>
        {c.enabled ? t('settings.countryOn') : t('settings.countryOff')}
      </span>
    </label>
  );
}

/** Edit and Remove of a listed country. */
function Actions({
  c,
  name,
  onEdit,
  save,
  className,
}: {
  c: MessageCountry;
  name: string;
  onEdit: () => void;
  save: Save;
  className?: string;
}) {
  const { t } = useI18n();
  return (
    <RowActions
      name={name}
      className={className}
      actions={[
        {
          key: 'edit',
          label: t('settings.countryEdit'),
          icon: <Pencil className="size-4" aria-hidden />,
          onSelect: onEdit,
        },
        {
          key: 'remove',
          label: t('settings.countryRemove'),
          icon: <Trash2 className="size-4" aria-hidden />,
          destructive: true,
          disabled: save.isPending,
          onSelect: () => save.mutate({ country: c.country, remove: true }),
        },
      ]}
    />
  );
}

/**
 * Settings' "Message prices by country": each listed destination's price per SMS segment and per MMS
 * (blank: the defaults above) and whether messages may go there, and whether the countries not listed
 * may be sent to. Each change is saved at once (audited) and applies to sends made after it.
 */
export function MessageCountries() {
  const { t, lang } = useI18n();
  const countries = useMessageCountries();
  const save = useSetMessageCountry();
  const [dialog, setDialog] = useState<{ editing: MessageCountry | null } | null>(null);
  const price = (v: number | null) =>
    v === null ? (
      <span className="text-muted">{t('settings.countryDefault')}</span>
    ) : (
      formatMoney(v, { decimals: 4 })
    );
  return (
    <Card
      className="max-w-3xl"
      title={t('settings.countriesTitle')}
      description={t('settings.countriesText')}
      actions={<AddButton onClick={() => setDialog({ editing: null })}>{t('settings.countryAdd')}</AddButton>}
    >
      <QueryState query={countries} errorTitle={t('settings.loadFailed')}>
        {(data) => (
          <div className="flex flex-col gap-4">
            <Switch
              label={t('settings.otherCountries')}
              hint={t('settings.otherCountriesHint')}
              checked={data.otherCountriesEnabled}
              disabled={save.isPending}
              onCheckedChange={(v) => save.mutate({ otherCountriesEnabled: v })}
            />
            {save.isError && !dialog ? <Notice tone="error">{errorMessage(save.error)}</Notice> : null}
            {data.countries.length === 0 ? (
              <p className="text-sm text-muted">{t('settings.countriesEmpty')}</p>
            ) : (
              <>
                {/* Phones: one card per country (a five-column table does not fit 390 px). */}
                <ul className="flex flex-col gap-2 sm:hidden" aria-label={t('settings.countriesTitle')}>
                  {data.countries.map((c) => {
                    const name = countryName(c.country, lang);
                    return (
                      <li key={c.country} className="rounded-md border border-line px-3 py-2 text-sm">
                        <div className="flex items-center justify-between gap-2">
                          <span className="font-medium text-fg">
                            <span aria-hidden className="mr-1.5">
                              {countryFlag(c.country)}
                            </span>
                            {name} <span className="font-mono text-xs text-muted">{c.country}</span>
                          </span>
                          <EnabledToggle c={c} name={name} save={save} />
                        </div>
                        <p className="mt-1 text-xs text-muted tabular">
                          {t('settings.countrySms')}: {price(c.smsPricePerSegment)} ·{' '}
                          {t('settings.countryMms')}: {price(c.mmsPrice)}
                        </p>
                        <Actions
                          c={c}
                          name={name}
                          onEdit={() => setDialog({ editing: c })}
                          save={save}
                          className="mt-1.5"
                        />
                      </li>
                    );
                  })}
                </ul>
                <table className="hidden w-full text-sm tabular sm:table" data-testid="message-countries">
                  <caption className="sr-only">{t('settings.countriesTitle')}</caption>
                  <thead>
                    <tr className="text-left text-xs text-muted">
                      <th scope="col" className="py-1.5 pr-3 font-normal">
                        {t('sending.countryHeader')}
                      </th>
                      <th scope="col" className="py-1.5 pr-3 text-right font-normal">
                        {t('settings.countrySms')}
                      </th>
                      <th scope="col" className="py-1.5 pr-3 text-right font-normal">
                        {t('settings.countryMms')}
                      </th>
                      <th scope="col" className="py-1.5 pr-3 font-normal">
                        {t('settings.countryEnabled')}
                      </th>
                      <th scope="col" className="py-1.5 font-normal">
                        <span className="sr-only">{t('settings.countryActions')}</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {data.countries.map((c) => {
                      const name = countryName(c.country, lang);
                      return (
                        <tr key={c.country} className="border-t border-line">
                          <th
                            scope="row"
                            className="py-1.5 pr-3 text-left font-normal whitespace-nowrap text-fg"
                          >
                            <span aria-hidden className="mr-1.5">
                              {countryFlag(c.country)}
                            </span>
                            {name} <span className="font-mono text-xs text-muted">{c.country}</span>
                          </th>
                          <td className="py-1.5 pr-3 text-right whitespace-nowrap">
                            {price(c.smsPricePerSegment)}
                          </td>
                          <td className="py-1.5 pr-3 text-right whitespace-nowrap">{price(c.mmsPrice)}</td>
                          <td className="py-1.5 pr-3">
                            <EnabledToggle c={c} name={name} save={save} />
                          </td>
                          <td className="py-1.5">
                            <Actions c={c} name={name} onEdit={() => setDialog({ editing: c })} save={save} />
                          </td>
                        </tr>
                      );
                    })}
                  </tbody>
                </table>
              </>
            )}
          </div>
        )}
      </QueryState>
      {dialog ? <CountryDialog editing={dialog.editing} onClose={() => setDialog(null)} /> : null}
    </Card>
  );
}
