import {
  endpoints,
  SECOND_FACTOR_CODE_MAX,
  type SecondFactorChallenge,
  SecondFactorLoginBody,
} from '@simdock/contract';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ApiError, call, errorMessage } from '../../api/client.ts';
import { Button } from '../../components/Button.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Input } from '../../components/Input.tsx';
import { Notice } from '../../components/Notice.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { allResolvers } from '../../lib/all-resolvers.ts';
import { bodyResolver, fieldErrorText, ruleResolver } from '../../lib/forms.ts';

/** Wrong codes this page has seen for its challenge, and what is left of the server's count. */
export function attemptsAfter(left: number, err: unknown): number {
  return err instanceof ApiError && err.kind === 'second_factor_invalid' ? Math.max(0, left - 1) : left;
}

interface Values {
  code: string;
}

/**
 * The login page's second step for an account with two-factor authentication: the code from the
 * app (or a recovery code) for the challenge the password step returned → the session token.
 * Unlike the password step it is on react-hook-form: it is its own chunk, loaded only when an account
 * needs it, so the library does not count against the login route's JavaScript budget.
 */
export function SecondStep({
  challenge,
  onToken,
  onBack,
}: {
  challenge: SecondFactorChallenge;
  onToken: (token: string) => void;
  onBack: () => void;
}) {
  const { t } = useI18n();
  const toBody = (v: Values): SecondFactorLoginBody => ({
    challenge: challenge.challenge,
    code: v.code.trim(),
  });
  const {
    register,
    handleSubmit,
    setValue,
    clearErrors,
    formState: { errors },
  } = useForm<Values>({
    defaultValues: { code: '' },
    // Required first (shown under the field), then the contract's body schema (SECOND_FACTOR_CODE_MAX).
    resolver: allResolvers(
      ruleResolver((v: Values) => ({ code: v.code.trim() ? undefined : 'codeRequired' })),
      bodyResolver(SecondFactorLoginBody, toBody),
    ),
  });
  const [recovery, setRecovery] = useState(false);
  const [left, setLeft] = useState(challenge.attemptsLeft);
  const mutation = useMutation({
    mutationKey: ['auth', 'secondFactor'],
    mutationFn: (body: SecondFactorLoginBody) => call(endpoints.secondFactor.login, body),
    onSuccess: ({ token }) => onToken(token),
    onError: (err) => setLeft((l) => attemptsAfter(l, err)),
  });
  const over =
    left === 0 ||
    (mutation.error instanceof ApiError && mutation.error.kind === 'second_factor_challenge_invalid');
  // A wrong code with tries left: one sentence with the count (the server's text states it too).
  const wrongCode =
    !over && mutation.error instanceof ApiError && mutation.error.kind === 'second_factor_invalid';

  const onSubmit = handleSubmit((v) => {
    if (!over) mutation.mutate(toBody(v));
  });

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="second-step">
      <h2 className="text-base font-semibold text-fg">{t('login.sfTitle')}</h2>
      <p className="text-sm text-muted">{recovery ? t('login.sfRecoveryText') : t('login.sfText')}</p>
      <FormField
        label={recovery ? t('login.sfRecoveryCode') : t('login.sfCode')}
        error={fieldErrorText(t, errors.code)}
      >
        <Input
          key={recovery ? 'recovery' : 'totp'}
          name="code"
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          maxLength={SECOND_FACTOR_CODE_MAX}
          {...register('code')}
        />
      </FormField>
      {mutation.isError ? (
        <Notice tone="error" title={t('login.failed')}>
          {wrongCode ? t('login.sfAttemptsLeft', { count: left }) : errorMessage(mutation.error)}
        </Notice>
      ) : null}
      {over ? (
        <Button type="button" variant="primary" onClick={onBack}>
          {t('login.sfBack')}
        </Button>
      ) : (
        <Button type="submit" variant="primary" busy={mutation.isPending} busyLabel={t('login.submitting')}>
          {t('login.sfVerify')}
        </Button>
      )}
      <div className="flex flex-wrap justify-between gap-2 text-[13px]">
        <button
          type="button"
          className="font-medium text-accent-text hover:underline"
          onClick={() => {
            setRecovery((r) => !r);
            setValue('code', '');
            clearErrors('code');
          }}
        >
          {recovery ? t('login.sfUseApp') : t('login.sfUseRecovery')}
        </button>
        <button type="button" className="font-medium text-accent-text hover:underline" onClick={onBack}>
          {t('login.sfBack')}
        </button>
      </div>
    </form>
  );
}
