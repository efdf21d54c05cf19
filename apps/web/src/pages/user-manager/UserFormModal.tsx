import { type AdminUser, EMAIL_MAX, ROLES, USERNAME_MAX } from '@simdock/contract';
import { type FieldError, useForm } from 'react-hook-form';
import { errorMessage } from '../../api/client.ts';
import { FormDialog, FormField, Input, MoneyInput, PasswordInput, Select } from '../../components/index.ts';
import { useI18n } from '../../i18n/index.tsx';
import { fieldErrorText, lowerCaseInput } from '../../lib/forms.ts';
import { useSaveUserMutation } from './api.ts';
import {
  emptyUserForm,
  formFromUser,
  roleLabel,
  serverUserFieldError,
  toUserInput,
  type UserFormValues,
  userFormResolver,
} from './user-form.ts';

export interface UserFormModalProps {
  /** The user to edit; none to add one. */
  user?: AdminUser;
  onClose: () => void;
  onSaved: (saved: AdminUser, created: boolean) => void;
}

/**
 * 'Add User' / 'Edit User' (docs/product.md): username, email, password, roles, status, balance (up to four decimals: messages are priced per segment).
 */
export function UserFormModal({ user, onClose, onSaved }: UserFormModalProps) {
  const { t } = useI18n();
  const save = useSaveUserMutation();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<UserFormValues>({
    defaultValues: user ? formFromUser(user) : emptyUserForm(),
    resolver: userFormResolver(!user),
  });

  const submit = handleSubmit((values) =>
    save.mutate(toUserInput(values, user?.id), {
      onSuccess: (res) => onSaved(res.user, !user),
      onError: (err) => {
        const onField = serverUserFieldError(err);
        if (onField)
          setError(onField.field, { type: onField.type, message: onField.message }, { shouldFocus: true });
      },
    }),
  );
  const bannerError =
    save.isError && !serverUserFieldError(save.error) ? errorMessage(save.error) : undefined;
  const username = register('username');
  const email = register('email');

  return (
    <FormDialog
      title={user ? t('users.editTitle') : t('users.addTitle')}
      onClose={onClose}
      onSubmit={submit}
      submitLabel={user ? t('users.update') : t('users.create')}
      pending={save.isPending}
      error={bannerError}
    >
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <FormField label={t('users.fieldUsername')} error={fieldErrorText(t, errors.username)}>
          <Input
            autoComplete="off"
            spellCheck={false}
            maxLength={USERNAME_MAX}
            {...username}
            onChange={lowerCaseInput(username.onChange)}
          />
        </FormField>
        <FormField label={t('users.fieldEmail')} error={fieldErrorText(t, errors.email)}>
          <Input
            type="email"
            autoComplete="off"
            maxLength={EMAIL_MAX}
            {...email}
            onChange={lowerCaseInput(email.onChange)}
          />
        </FormField>
        <FormField
          label={t('users.fieldPassword')}
          hint={user ? t('users.passwordHintEdit') : t('users.passwordHintNew')}
          error={fieldErrorText(t, errors.password)}
        >
          <PasswordInput autoComplete="new-password" {...register('password')} />
        </FormField>
        <FormField label={t('users.fieldStatus')} error={fieldErrorText(t, errors.status)}>
          <Select {...register('status')}>
            <option value="Active">{t('users.statusActive')}</option>
            <option value="Inactive">{t('users.statusInactive')}</option>
          </Select>
        </FormField>
        <fieldset className="sm:col-span-2">
          <legend className="mb-1.5 text-[13px] font-medium text-fg">{t('users.fieldRoles')}</legend>
          <div className="flex flex-wrap gap-2">
            {ROLES.map((role) => (
              <label
                key={role}
                className="flex cursor-pointer items-center gap-2 rounded-md border border-line px-3 py-1.5 text-[13px] hover:bg-subtle/50"
              >
                <input type="checkbox" value={role} className="size-4 accent-accent" {...register('roles')} />
                <span>{roleLabel(t, role)}</span>
              </label>
            ))}
          </div>
          {errors.roles ? (
            <p role="alert" className="mt-1 text-xs text-bad">
              {fieldErrorText(t, errors.roles as FieldError)}
            </p>
          ) : null}
        </fieldset>
        <FormField
          label={t('users.fieldBalance')}
          hint={t('users.balanceHint')}
          error={fieldErrorText(t, errors.balance)}
          className="sm:col-span-2"
        >
          <MoneyInput decimals={4} {...register('balance')} />
        </FormField>
      </div>
    </FormDialog>
  );
}
