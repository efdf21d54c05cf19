import {
  EMAIL_MAX,
  normalizeLogin,
  type RegisterField,
  TEXT_LIMITS,
  validateRegister,
} from '@simdock/contract';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../components/Button.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Input, PasswordInput } from '../../components/Input.tsx';
import { Notice } from '../../components/Notice.tsx';
import { AuthLayout } from '../../components/PublicLayout.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { fieldErrorText, lowerCaseInput, ruleResolver } from '../../lib/forms.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { useRegisterMutation } from './api.ts';

type RegisterValues = Record<RegisterField, string>;
const EMPTY: RegisterValues = { username: '', email: '', password: '', confirmPassword: '' };

export function RegisterPage() {
  const { t, rich } = useI18n();
  const mutation = useRegisterMutation();
  const navigate = useNavigate();
  useDocumentTitle(t('register.title'));
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<RegisterValues>({
    defaultValues: EMPTY,
    resolver: ruleResolver((v: RegisterValues) => validateRegister(v)),
  });
  const username = register('username');
  const email = register('email');

  // Registered: on to the sign-in page with the username filled in (it says the account was made),
  // rather than an empty form that leaves the user wondering what next.
  const onSubmit = handleSubmit((v) => {
    const name = normalizeLogin(v.username);
    mutation.mutate(
      { username: name, email: normalizeLogin(v.email), passwordHash: v.password },
      {
        onSuccess: () => {
          reset(EMPTY);
          navigate('/login', { state: { registered: name } });
        },
      },
    );
  });

  return (
    <AuthLayout title={t('register.title')} subtitle={t('register.subtitle')}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <FormField
          label={t('register.username')}
          hint={t('register.usernameHint')}
          error={fieldErrorText(t, errors.username)}
        >
          <Input
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            maxLength={TEXT_LIMITS.loginUsername}
            {...username}
            onChange={lowerCaseInput(username.onChange)}
          />
        </FormField>
        <FormField label={t('register.email')} error={fieldErrorText(t, errors.email)}>
          <Input
            type="email"
            autoComplete="email"
            maxLength={EMAIL_MAX}
            {...email}
            onChange={lowerCaseInput(email.onChange)}
          />
        </FormField>
        <FormField
          label={t('register.password')}
          hint={t('register.passwordHint')}
          error={fieldErrorText(t, errors.password)}
        >
          <PasswordInput autoComplete="new-password" {...register('password')} />
        </FormField>
        <FormField label={t('register.confirm')} error={fieldErrorText(t, errors.confirmPassword)}>
          <PasswordInput autoComplete="new-password" {...register('confirmPassword')} />
        </FormField>
        <Button
          type="submit"
          variant="primary"
          busy={mutation.isPending}
          busyLabel={t('register.submitting')}
        >
          {t('register.submit')}
        </Button>
        {mutation.isError ? <Notice tone="error">{errorMessage(mutation.error)}</Notice> : null}
        <p className="text-xs text-muted">
          {rich('register.agree', {
            terms: (
              <Link to="/terms" className="underline hover:text-fg">
                {t('landing.terms')}
              </Link>
            ),
            privacy: (
              <Link to="/privacy" className="underline hover:text-fg">
                {t('landing.privacy')}
              </Link>
            ),
          })}
        </p>
      </form>
      <p className="mt-5 text-center text-[13px] text-muted">
        {t('register.haveAccount')}{' '}
        <Link to="/login" className="font-medium text-accent-text hover:underline">
          {t('register.login')}
        </Link>
      </p>
    </AuthLayout>
  );
}
