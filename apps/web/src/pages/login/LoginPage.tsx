import {
  type LoginForm,
  normalizeLogin,
  type RuleMessageKey,
  type SecondFactorChallenge,
  TEXT_LIMITS,
  validateLogin,
} from '@simdock/contract';
import { type FormEvent, lazy, Suspense, useRef, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../components/Button.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Input, PasswordInput } from '../../components/Input.tsx';
import { Notice } from '../../components/Notice.tsx';
import { AuthLayout } from '../../components/PublicLayout.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { lowerCaseInput } from '../../lib/forms.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { homePath, useSession } from '../../session/session.tsx';
import { NEXT_PARAM, readToken, safeNextPath } from '../../session/session-core.ts';
import { useLoginMutation } from './api.ts';

// Only accounts with a second factor reach this step: it stays out of the login page's first load.
const SecondStep = lazy(() => import('./SecondStep.tsx').then((m) => ({ default: m.SecondStep })));

/**
 * The one form not on react-hook-form (with its second step, SecondStep.tsx), on purpose: two fields, and
 * the library (12 KB gzip) would push the login route's initial JavaScript over its budget (README). Otherwise the same pattern as the other
 * forms: the contract's rule (`validateLogin`) and limits, errors on submit that then follow the typing,
 * the first invalid field focused.
 */
export function LoginPage() {
  const { t } = useI18n();
  const session = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  // Set by the reset-password page after a new password was saved.
  const passwordReset = (location.state as { passwordReset?: boolean } | null)?.passwordReset === true;
  // Set by the register page: the new account's username, filled in; the password is what is left.
  const registered = (location.state as { registered?: unknown } | null)?.registered;
  const newAccount = typeof registered === 'string' ? registered : undefined;
  // The page a signed-out visit was sent here from (RequireAuth): back there after signing in.
  const next = safeNextPath(new URLSearchParams(location.search).get(NEXT_PARAM));
  const mutation = useLoginMutation();
  useDocumentTitle(t('login.submit'));
  const [values, setValues] = useState<LoginForm>({ username: newAccount ?? '', password: '' });
  const [submitted, setSubmitted] = useState(false);
  const [challenge, setChallenge] = useState<SecondFactorChallenge | null>(null);
  const signIn = (token: string) => {
    session.login(token);
    const state = readToken(token, Date.now());
    navigate(next ?? homePath(state.kind === 'valid' ? state.roles : []), { replace: true });
  };
  const usernameRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);
  const errors = submitted ? validateLogin(values) : {};
  const errorText = (key: RuleMessageKey | undefined) => (key ? t(`rule.${key}`) : undefined);
  const change = (field: keyof LoginForm) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    setSubmitted(true);
    const invalid = validateLogin(values);
    if (invalid.username) return usernameRef.current?.focus();
    if (invalid.password) return passwordRef.current?.focus();
    mutation.mutate(
      { username: normalizeLogin(values.username), password: values.password },
      {
        onSuccess: (answer) => {
          if ('secondFactor' in answer) return setChallenge(answer);
          // An admin who must still enrol a second factor can reach User Info only.
          if (answer.secondFactorSetup) {
            session.login(answer.token);
            return navigate('/userinfo', { replace: true });
          }
          signIn(answer.token);
        },
      },
    );
  };

  return (
    // The second step has its own heading and text: "Welcome back… username and password" would be stale.
    <AuthLayout title={t('login.title')} subtitle={challenge ? undefined : t('login.subtitle')}>
      {challenge ? (
        <Suspense fallback={null}>
          <SecondStep
            challenge={challenge}
            onToken={signIn}
            onBack={() => {
              setChallenge(null);
              mutation.reset();
            }}
          />
        </Suspense>
      ) : (
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
          {passwordReset && !mutation.isError ? (
            <Notice tone="success">{t('login.passwordReset')}</Notice>
          ) : null}
          {newAccount && !mutation.isError ? <Notice tone="success">{t('login.registered')}</Notice> : null}
          <FormField label={t('login.username')} error={errorText(errors.username)}>
            <Input
              ref={usernameRef}
              name="username"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              autoFocus={!newAccount}
              maxLength={TEXT_LIMITS.loginUsername}
              value={values.username}
              onChange={lowerCaseInput(change('username'))}
            />
          </FormField>
          <FormField label={t('login.password')} error={errorText(errors.password)}>
            <PasswordInput
              ref={passwordRef}
              name="password"
              autoFocus={Boolean(newAccount)}
              autoComplete="current-password"
              value={values.password}
              onChange={change('password')}
            />
          </FormField>
          {mutation.isError ? (
            <Notice tone="error" title={t('login.failed')}>
              {errorMessage(mutation.error)}
            </Notice>
          ) : null}
          <Button type="submit" variant="primary" busy={mutation.isPending} busyLabel={t('login.submitting')}>
            {t('login.submit')}
          </Button>
          {/* After Sign In, so Tab goes Username → Password → Sign In. */}
          <Link
            to="/forgot-password"
            className="self-center text-[13px] font-medium text-accent-text hover:underline"
          >
            {t('login.forgot')}
          </Link>
        </form>
      )}
      <p className="mt-5 text-center text-[13px] text-muted">
        {t('login.noAccount')}{' '}
        <Link to="/register" className="font-medium text-accent-text hover:underline">
          {t('login.register')}
        </Link>
      </p>
    </AuthLayout>
  );
}
