import { describe, expect, it } from 'vitest';
import { changedFields } from './audit-format.ts';

describe('changedFields', () => {
  it('lists changed fields only', () => {
    expect(
      changedFields(
        { username: 'a', roles: ['User'], balance: '10.00' },
        { username: 'a', roles: ['User', 'SMS'], balance: '25.75' },
      ),
    ).toEqual([
      { field: 'roles', before: 'User', after: 'User, SMS' },
      { field: 'balance', before: '10.00', after: '25.75' },
    ]);
  });

  it('lists every field of a create and a delete', () => {
    expect(changedFields(null, { name: 'X' })).toEqual([{ field: 'name', after: 'X' }]);
    expect(changedFields({ name: 'X' }, null)).toEqual([{ field: 'name', before: 'X' }]);
  });
});
