import { countryFlag, countryName, TEXT_LIMITS } from '@simdock/contract';
import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../components/Button.tsx';
import { FormDialog } from '../../components/FormDialog.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Input } from '../../components/Input.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { countryList } from '../../lib/countries.ts';
import { fieldErrorText, keyResolver } from '../../lib/forms.ts';
import { useSetSimOriginMutation } from './api.ts';
import { ORIGIN_SOURCE_TEXT, simText } from './sim-text.ts';
import type { SimDialogProps } from './sims.ts';

interface OriginValues {
  country: string;
  operator: string;
}

/** The code typed, as the contract reads it ("de " → "DE"); undefined when it is not two letters. */
export function countryCodeOf(text: string): string | undefined {
  const code = text.trim().toUpperCase();
  return /^[A-Z]{2}$/.test(code) ? code : undefined;
}

/**
 * An admin corrects the SIM's country (a two-letter code, its name shown as it is typed; the list
 * offers every country by name) and operator. "Clear correction" goes back to what the card says.
 */
export function OriginDialog({ deviceKind, gatewayId, sim, onClose, onDone }: SimDialogProps) {
  const { t, lang } = useI18n();
  const mutation = useSetSimOriginMutation();
  const listId = useId();
  const origin = sim.origin;
  const {
    register,
    handleSubmit,
    watch,
    formState: { errors },
  } = useForm<OriginValues>({
    defaultValues: {
      country: origin.country,
      operator: origin.corrected ? (origin.operator ?? '') : '',
    },
    resolver: keyResolver((v: OriginValues) => ({
      country: countryCodeOf(v.country) ? undefined : 'gateways.originCountryInvalid',
    })),
  });
  const code = countryCodeOf(watch('country'));
  const name = code ? countryName(code, lang) : undefined;
  // countryName answers the code itself when the platform has no name for it.
  const known = code !== undefined && name !== code;

  const done = (res: { msg: string }) => onDone(res.msg, true);
  const submit = handleSubmit((v) =>
    mutation.mutate(
      { gatewayId, port: sim.port, country: countryCodeOf(v.country)!, operator: v.operator.trim() || null },
      { onSuccess: done },
    ),
  );
  const clear = () =>
    mutation.mutate({ gatewayId, port: sim.port, country: null, operator: null }, { onSuccess: done });

  return (
    <FormDialog
      title={simText(t, deviceKind, sim.port, 'origin')}
      intro={
        <>
          {t('gateways.originText')}{' '}
          {t('gateways.originNow', {
            country: `${countryFlag(origin.country)} ${countryName(origin.country, lang)}`.trim(),
            source: t(ORIGIN_SOURCE_TEXT[origin.corrected ? 'admin' : origin.source]),
          })}
        </>
      }
      onClose={onClose}
      onSubmit={submit}
      submitLabel={t('common.save')}
      pending={mutation.isPending}
      size="sm"
      error={mutation.isError ? errorMessage(mutation.error) : undefined}
      errorTitle={t('gateways.saveFailed')}
    >
      <FormField
        label={t('gateways.originCountry')}
        hint={
          code ? (
            <span aria-live="polite" className={known ? undefined : 'text-warn'}>
              {known ? `${countryFlag(code)} ${name}` : t('gateways.originUnknown')}
            </span>
          ) : (
            t('gateways.originCountryHint')
          )
        }
        error={fieldErrorText(t, errors.country)}
      >
        <Input
          className="w-28 font-mono uppercase"
          autoComplete="off"
          maxLength={8}
          list={listId}
          {...register('country')}
        />
      </FormField>
      <datalist id={listId}>
        {countryList(lang).map((c) => (
          <option key={c.code} value={c.code} label={c.name} />
        ))}
      </datalist>
      <FormField label={t('gateways.originOperator')} hint={t('gateways.originOperatorHint')}>
        <Input autoComplete="off" maxLength={TEXT_LIMITS.operator} {...register('operator')} />
      </FormField>
      {origin.corrected ? (
        <div>
          <Button size="sm" variant="ghost" className="-ml-2" onClick={clear} disabled={mutation.isPending}>
            {t('gateways.originClear')}
          </Button>
        </div>
      ) : null}
    </FormDialog>
  );
}
