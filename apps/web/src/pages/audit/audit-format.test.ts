import { describe, expect, it } from 'vitest';
import { describeChange } from './audit-format.ts';

describe('describeChange', () => {
  it('lists changed fields only', () => {
    expect(
      describeChange(
        { username: 'a', roles: ['User'], balance: '10.00' },
        { username: 'a', roles: ['User', 'SMS'], balance: '25.75' },
      ),
    ).toEqual(['roles: User → User, SMS', 'balance: 10.00 → 25.75']);
  });

  it('lists every field of a create and a delete', () => {
    expect(describeChange(null, { name: 'X' })).toEqual(['name: X']);
    expect(describeChange({ name: 'X' }, null)).toEqual(['name: X → —']);
  });
});
