import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { ApiError, errorMessage } from '../../api/client.ts';
import { Button } from '../../components/Button.tsx';
import { FormField } from '../../components/FormField.tsx';
import { PasswordInput } from '../../components/Input.tsx';
import { Notice } from '../../components/Notice.tsx';
import { AuthLayout } from '../../components/PublicLayout.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { fieldErrorText, ruleResolver } from '../../lib/forms.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { useResetLinkCheck, useResetMutation } from './api.ts';
import { type ResetForm, validateResetForm } from './validate.ts';

/** The state the sign-in page reads to say the password was changed. */
export const PASSWORD_RESET_STATE = { passwordReset: true } as const;

/**
 * /reset-password?token=…: the page a mailed link opens. Asks for the new password twice, then
 * sends the user to sign in. A dead link (expired, used, superseded) says so and offers a new one.
 */
export function ResetPasswordPage() {
  const { t } = useI18n();
  useDocumentTitle(t('recovery.resetTitle'));
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const mutation = useResetMutation();
  // Checked on load: a dead link says so before anyone types a new password twice.
  const check = useResetLinkCheck(token);
  const deadOnLoad = check.error instanceof ApiError && check.error.field === 'token';
  // The contract's password rule (its limit is PASSWORD_MAX, PasswordInput's maxLength) and the match.
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<ResetForm>({
    defaultValues: { password: '', confirm: '' },
    resolver: ruleResolver(validateResetForm),
  });
  const deadLink =
    !token || deadOnLoad || (mutation.error instanceof ApiError && mutation.error.field === 'token');
  // The form waits for the check (a failed check for another reason, offline, still shows the form).
  const checking = token !== '' && check.isPending;

  const onSubmit = handleSubmit((values) =>
    mutation.mutate(
      { token, password: values.password },
      { onSuccess: () => navigate('/login', { replace: true, state: PASSWORD_RESET_STATE }) },
    ),
  );

  return (
    <AuthLayout
      title={t('recovery.resetTitle')}
      subtitle={deadLink || checking ? undefined : t('recovery.resetSubtitle')}
    >
      {checking ? (
        <p role="status" className="text-center text-sm text-muted">
          {t('recovery.checking')}
        </p>
      ) : deadLink ? (
        <div className="flex flex-col gap-4">
          <Notice tone="error">{t('recovery.linkInvalid')}</Notice>
          <Link
            to="/forgot-password"
            className="text-center text-sm font-medium text-accent-text hover:underline"
          >
            {t('recovery.askAgain')}
          </Link>
        </div>
      ) : (
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
          <FormField label={t('recovery.newPassword')} error={fieldErrorText(t, errors.password)}>
            <PasswordInput autoComplete="new-password" autoFocus {...register('password')} />
          </FormField>
          <FormField label={t('recovery.confirmPassword')} error={fieldErrorText(t, errors.confirm)}>
            <PasswordInput autoComplete="new-password" {...register('confirm')} />
          </FormField>
          {mutation.isError ? (
            <Notice tone="error" title={t('recovery.resetFailed')}>
              {errorMessage(mutation.error)}
            </Notice>
          ) : null}
          <Button type="submit" variant="primary" busy={mutation.isPending} busyLabel={t('recovery.saving')}>
            {t('recovery.save')}
          </Button>
        </form>
      )}
      <p className="mt-5 text-center text-[13px] text-muted">
        <Link to="/login" className="font-medium text-accent-text hover:underline">
          {t('recovery.backToLogin')}
        </Link>
      </p>
    </AuthLayout>
  );
}
