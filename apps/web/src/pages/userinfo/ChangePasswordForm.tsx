import { validateChangePassword } from '@simdock/contract';
import type { FormEvent } from 'react';
import { useForm } from 'react-hook-form';
import { Button } from '../../components/Button.tsx';
import { FormField } from '../../components/FormField.tsx';
import { PasswordInput } from '../../components/Input.tsx';
import { Notice } from '../../components/Notice.tsx';
import { useI18n } from '../../i18n/index.tsx';
import { serverText } from '../../lib/errors.ts';
import { fieldErrorText, ruleResolver } from '../../lib/forms.ts';
import { useSession } from '../../session/session.tsx';
import { useChangePasswordMutation } from './api.ts';

interface Values {
  oldPass: string;
  newPass: string;
  confirmPass: string;
  revokeKeys: boolean;
}
const EMPTY: Values = { oldPass: '', newPass: '', confirmPass: '', revokeKeys: false };

/**
 * Old, new and confirmation (docs/product.md). A mismatch shows 'Mật khẩu mới không khớp.' (vi) or its
 * English entry; success 'Đổi mật khẩu thành công!'; failure the server's msg, else 'Không thể đổi mật khẩu.'.
 */
export function ChangePasswordForm() {
  const { t } = useI18n();
  const mutation = useChangePasswordMutation();
  const { user } = useSession();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<Values>({
    defaultValues: EMPTY,
    resolver: ruleResolver((v: Values) => validateChangePassword(v)),
  });

  // A result belongs to the attempt that caused it: a new attempt (even one the form refuses before
  // sending) or an edit of a field clears the last one's message.
  const clearResult = () => {
    if (!mutation.isIdle) mutation.reset();
  };
  const send = handleSubmit((v) =>
    mutation.mutate(
      { oldPass: v.oldPass, newPass: v.newPass, ...(v.revokeKeys ? { revokeKeys: true } : {}) },
      { onSuccess: () => reset(EMPTY) },
    ),
  );
  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    clearResult();
    return send(e);
  };
  const field = (name: keyof Values) => register(name, { onChange: clearResult });
  const failure = serverText(mutation.error) ?? t('userInfo.passwordChangeFailed');

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="flex flex-col gap-4"
      aria-label={t('userInfo.changePassword')}
    >
      {/* Lets password managers store the new password for the right account. */}
      <input
        type="text"
        name="username"
        autoComplete="username"
        value={user?.username ?? ''}
        readOnly
        hidden
      />
      <FormField label={t('userInfo.oldPass')} error={fieldErrorText(t, errors.oldPass)}>
        <PasswordInput autoComplete="current-password" {...field('oldPass')} />
      </FormField>
      <FormField
        label={t('userInfo.newPass')}
        hint={t('userInfo.passwordHint')}
        error={fieldErrorText(t, errors.newPass)}
      >
        <PasswordInput autoComplete="new-password" {...field('newPass')} />
      </FormField>
      <FormField label={t('userInfo.confirmPass')} error={fieldErrorText(t, errors.confirmPass)}>
        <PasswordInput autoComplete="new-password" {...field('confirmPass')} />
      </FormField>
      <label className="flex cursor-pointer items-start gap-2 text-sm">
        <input type="checkbox" className="mt-0.5 size-4 shrink-0 accent-accent" {...field('revokeKeys')} />
        <span>{t('userInfo.revokeKeys')}</span>
      </label>
      {mutation.isSuccess ? <Notice tone="success">{t('userInfo.passwordChanged')}</Notice> : null}
      {mutation.isError ? <Notice tone="error">{failure}</Notice> : null}
      <div>
        <Button type="submit" variant="primary" busy={mutation.isPending} busyLabel={t('common.saving')}>
          {t('userInfo.submit')}
        </Button>
      </div>
    </form>
  );
}
