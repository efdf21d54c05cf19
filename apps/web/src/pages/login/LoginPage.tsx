import { normalizeLogin, type RuleMessageKey } from '@simdock/contract';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { homePath, useSession } from '../../app/session.tsx';
import { readToken } from '../../app/session-core.ts';
import { AuthLayout } from '../../app/shell/PublicLayout.tsx';
import { Button } from '../../components/Button.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Input } from '../../components/Input.tsx';
import { Notice } from '../../components/Notice.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { lowerCaseInput, ruleResolver, ruleText } from '../../lib/forms.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { useLoginMutation } from './api.ts';

interface LoginForm {
  username: string;
  password: string;
}

/** Spec §5: both fields required. */
function validateLoginForm(v: LoginForm): Partial<Record<keyof LoginForm, RuleMessageKey>> {
  return {
    ...(v.username.trim() ? {} : { username: 'usernameRequired' as const }),
    ...(v.password ? {} : { password: 'passwordRequired' as const }),
  };
}

export function LoginPage() {
  const { t } = useI18n();
  const session = useSession();
  const navigate = useNavigate();
  const mutation = useLoginMutation();
  useDocumentTitle(t('login.submit'));
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<LoginForm>({
    defaultValues: { username: '', password: '' },
    resolver: ruleResolver(validateLoginForm),
  });
  const username = register('username');

  const onSubmit = handleSubmit((v) =>
    mutation.mutate(
      { username: normalizeLogin(v.username), password: v.password },
      {
        onSuccess: ({ token }) => {
          session.login(token);
          const state = readToken(token, Date.now());
          navigate(homePath(state.kind === 'valid' ? state.roles : []), { replace: true });
        },
      },
    ),
  );

  return (
    <AuthLayout title={t('login.title')} subtitle={t('login.subtitle')}>
      <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
        <FormField label={t('login.username')} error={ruleText(t, errors.username)}>
          <Input
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            autoFocus
            {...username}
            onChange={lowerCaseInput(username.onChange)}
          />
        </FormField>
        <FormField
          label={t('login.password')}
          error={ruleText(t, errors.password)}
          labelAside={
            // A placeholder: password reset is not part of the product yet (spec §2).
            <button type="button" className="text-xs font-medium text-accent-text hover:underline">
              {t('login.forgot')}
            </button>
          }
        >
          <Input type="password" autoComplete="current-password" {...register('password')} />
        </FormField>
        {mutation.isError ? (
          <Notice tone="error" title={t('login.failed')}>
            {errorMessage(mutation.error)}
          </Notice>
        ) : null}
        <Button type="submit" variant="primary" busy={mutation.isPending} busyLabel={t('login.submitting')}>
          {t('login.submit')}
        </Button>
      </form>
      <p className="mt-5 text-center text-[13px] text-muted">
        {t('login.noAccount')}{' '}
        <Link to="/register" className="font-medium text-accent-text hover:underline">
          {t('login.register')}
        </Link>
      </p>
    </AuthLayout>
  );
}
