import { describe, expect, it } from 'vitest';
import { ServiceInput } from './services.ts';
import { AdminUserListBody, AuditListBody } from './users.ts';

// Text that PostgreSQL cannot take (NUL) or that cannot name anything (an empty id) is refused by
// the contract, so it never reaches the database.

describe('the contract refuses NUL and empty ids before the database', () => {
  it.each([['a\u0000b'], ['\u0000']])('Admin/audit actor and Admin/getUser search refuse %j', (text) => {
    expect(AuditListBody.safeParse({ actor: text }).success).toBe(false);
    expect(AuditListBody.safeParse({ from: text }).success).toBe(false);
    expect(AdminUserListBody.safeParse({ search: text }).success).toBe(false);
  });

  it('ordinary filters still pass', () => {
    expect(AuditListBody.safeParse({ actor: 'admin', from: '2026-01-01' }).success).toBe(true);
    expect(AdminUserListBody.safeParse({ search: 'bob' }).success).toBe(true);
  });

  it('an empty service id is a clear refusal; no id adds', () => {
    const base = { name: 'X', code: 'x', price: 1 };
    const empty = ServiceInput.safeParse({ ...base, id: '' });
    expect(empty.success).toBe(false);
    expect(empty.error?.issues[0]?.path).toEqual(['id']);
    expect(empty.error?.issues[0]?.message).toBe('Id must not be empty: leave it out to add a service.');
    expect(ServiceInput.safeParse(base).success).toBe(true);
  });
});
