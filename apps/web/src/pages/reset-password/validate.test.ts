import { describe, expect, it } from 'vitest';
import { validateResetForm } from './validate.ts';

describe('validateResetForm', () => {
  it.each([
    [
      { password: '', confirm: '' },
      { password: 'passwordRequired', confirm: 'confirmRequired' },
    ],
    [{ password: '1234567', confirm: '1234567' }, { password: 'passwordTooShort' }],
    [{ password: '12345678', confirm: '' }, { confirm: 'confirmRequired' }],
    [{ password: '12345678', confirm: '12345679' }, { confirm: 'passwordsMismatch' }],
    [{ password: 'x'.repeat(257), confirm: 'x'.repeat(257) }, { password: 'passwordTooLong' }],
    [{ password: '12345678', confirm: '12345678' }, {}],
  ])('%j → %j', (form, errors) => {
    expect(validateResetForm(form)).toEqual(errors);
  });
});
