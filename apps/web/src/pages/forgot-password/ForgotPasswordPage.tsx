import { EMAIL_MAX, ForgotBody, normalizeLogin } from '@simdock/contract';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { errorMessage } from '../../api/client.ts';
import { Button } from '../../components/Button.tsx';
import { FormField } from '../../components/FormField.tsx';
import { Input } from '../../components/Input.tsx';
import { Notice } from '../../components/Notice.tsx';
import { AuthLayout } from '../../components/PublicLayout.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { allResolvers } from '../../lib/all-resolvers.ts';
import { bodyResolver, fieldErrorText, keyResolver } from '../../lib/forms.ts';
import { useDocumentTitle } from '../../lib/useDocumentTitle.ts';
import { useForgotMutation } from './api.ts';

interface Values {
  login: string;
}
const toBody = (v: Values): ForgotBody => ({ login: normalizeLogin(v.login) });
// Required first (the body schema has no minimum: the server answers an empty login like any other),
// then the contract's body schema (its limit, EMAIL_MAX, under the field).
const resolver = allResolvers<Values>(
  keyResolver((v) => ({ login: v.login.trim() ? undefined : 'recovery.loginRequired' })),
  bodyResolver(ForgotBody, toBody),
);

/**
 * /forgot-password: asks for a username or email and answers with the same words whatever the
 * account. When the server sends no mail, it shows the operator's contact instead; when it keeps
 * mails in its outbox (no mail server set up), it says so.
 */
export function ForgotPasswordPage() {
  const { t } = useI18n();
  useDocumentTitle(t('recovery.forgotTitle'));
  const mutation = useForgotMutation();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm<Values>({ defaultValues: { login: '' }, resolver });
  const onSubmit = handleSubmit((v) => mutation.mutate(toBody(v)));

  const answer = mutation.data;
  return (
    <AuthLayout
      title={t('recovery.forgotTitle')}
      subtitle={answer ? undefined : t('recovery.forgotSubtitle')}
    >
      {answer ? (
        answer.mailMode === 'outbox' ? (
          // No mail server (demo, development): say where the link really is, not "check your email".
          <Notice tone="info" title={t('recovery.outboxTitle')}>
            {t('recovery.outbox')}
          </Notice>
        ) : answer.mailEnabled ? (
          <Notice tone="success">{t('recovery.sent')}</Notice>
        ) : (
          <Notice tone="info" title={t('recovery.noMail')}>
            {answer.supportContact}
          </Notice>
        )
      ) : (
        <form onSubmit={onSubmit} noValidate className="flex flex-col gap-4">
          <FormField label={t('recovery.login')} error={fieldErrorText(t, errors.login)}>
            <Input
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              autoFocus
              maxLength={EMAIL_MAX}
              {...register('login')}
            />
          </FormField>
          {mutation.isError ? (
            <Notice tone="error" title={t('recovery.failed')}>
              {errorMessage(mutation.error)}
            </Notice>
          ) : null}
          <Button type="submit" variant="primary" busy={mutation.isPending} busyLabel={t('recovery.sending')}>
            {t('recovery.send')}
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
