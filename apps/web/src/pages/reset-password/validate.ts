import { passwordError, type RuleMessageKey } from '@simdock/contract';

export interface ResetForm {
  password: string;
  confirm: string;
}

/** The spec's password rule on the new password, and the confirmation matching it. */
export function validateResetForm(form: ResetForm): Partial<Record<keyof ResetForm, RuleMessageKey>> {
  const errors: Partial<Record<keyof ResetForm, RuleMessageKey>> = {};
  const p = passwordError(form.password);
  if (p) errors.password = p;
  if (!form.confirm) errors.confirm = 'confirmRequired';
  else if (form.confirm !== form.password) errors.confirm = 'passwordsMismatch';
  return errors;
}
