import {
  endpoints,
  SECOND_FACTOR_CODE_MAX,
  type SecondFactorChallenge,
  SecondFactorLoginBody,
} from '@simdock/contract';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { ApiError, call, errorMessage } from '../../api/client.ts';
import { Button } from '../../components/Button.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Input } from '../../components/Input.tsx';
import { Notice } from '../../components/Notice.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { fieldErrorText } from '../../lib/forms.ts';

/** Wrong codes this page has seen for its challenge, and what is left of the server's count. */
export function attemptsAfter(left: number, err: unknown): number {
  return err instanceof ApiError && err.kind === 'second_factor_invalid' ? Math.max(0, left - 1) : left;
}

/**
 * The code's error for the form, as react-hook-form's resolvers give it (`fieldErrorText` shows it):
 * required (a rule key), then the contract's body schema (SECOND_FACTOR_CODE_MAX, the server's limit).
 */
export function codeError(
  challenge: string,
  code: string,
): { type: 'rule' | 'schema'; message: string } | undefined {
  if (!code.trim()) return { type: 'rule', message: 'codeRequired' };
  const parsed = SecondFactorLoginBody.safeParse({ challenge, code: code.trim() });
  const issue = parsed.success ? undefined : parsed.error.issues.find((i) => i.path[0] === 'code');
  return issue ? { type: 'schema', message: issue.message } : undefined;
}

/**
 * The login page's second step for an account with two-factor authentication: the code from the
 * app (or a recovery code) for the challenge the password step returned → the session token.
 * Like the password step it is written by hand, not on react-hook-form: it loads from the login page,
 * and even as a lazy chunk its dependencies are listed in the login route's JavaScript (Vite's preload
 * list), which is at its budget (README, apps/web/README.md). Same pattern otherwise: the contract's
 * rules and limit, the error under the field on submit, then following the typing; the field focused.
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
  const [code, setCode] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const error = submitted ? codeError(challenge.challenge, code) : undefined;
  const [recovery, setRecovery] = useState(false);
  const [left, setLeft] = useState(challenge.attemptsLeft);
  const mutation = useMutation({
    mutationKey: ['auth', 'secondFactor'],
    mutationFn: (c: string) =>
      call(endpoints.secondFactor.login, { challenge: challenge.challenge, code: c }),
    onSuccess: ({ token }) => onToken(token),
    onError: (err) => setLeft((l) => attemptsAfter(l, err)),
  });
  const over =
    left === 0 ||
    (mutation.error instanceof ApiError && mutation.error.kind === 'second_factor_challenge_invalid');
  // A wrong code with tries left: one sentence with the count (the server's text states it too).
  const wrongCode =
    !over && mutation.error instanceof ApiError && mutation.error.kind === 'second_factor_invalid';

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setSubmitted(true);
    if (codeError(challenge.challenge, code)) return inputRef.current?.focus();
    if (!over) mutation.mutate(code.trim());
  };

  return (
    <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4" data-testid="second-step">
      <h2 className="text-base font-semibold text-fg">{t('login.sfTitle')}</h2>
      <p className="text-sm text-muted">{recovery ? t('login.sfRecoveryText') : t('login.sfText')}</p>
      <FormField
        label={recovery ? t('login.sfRecoveryCode') : t('login.sfCode')}
        error={fieldErrorText(t, error)}
      >
        <Input
          ref={inputRef}
          key={recovery ? 'recovery' : 'totp'}
          name="code"
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          autoCapitalize="none"
          spellCheck={false}
          autoFocus
          maxLength={SECOND_FACTOR_CODE_MAX}
          value={code}
          onChange={(e) => setCode(e.target.value)}
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
            setCode('');
            setSubmitted(false);
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
