import { afterEach, describe, expect, it } from 'vitest';
import { classifyOrderChange } from '../api/orders.ts';
import { orderFor } from '../test/utils.tsx';
import { notifications } from './notifications.ts';

afterEach(() => notifications.setOwner(null));

describe('notifications store', () => {
  it('counts unread, keeps them per user across a reload, and marks them read', () => {
    notifications.setOwner('ann');
    notifications.add({ id: 'c1', kind: 'code', href: '/dashboard', params: { code: '123' } });
    notifications.add({ id: 'c2', kind: 'code', href: '/dashboard', params: { code: '456' } });
    notifications.add({ id: 'c1', kind: 'code', href: '/dashboard', params: { code: '123' } });
    expect(notifications.get().map((n) => n.id)).toEqual(['c1', 'c2']);
    notifications.setOwner('bob');
    expect(notifications.get()).toEqual([]);
    notifications.setOwner('ann');
    expect(notifications.get().filter((n) => !n.read)).toHaveLength(2);
    notifications.markAllRead();
    expect(notifications.get().filter((n) => !n.read)).toHaveLength(0);
  });
});

describe('classifyOrderChange (one refetch per change)', () => {
  const o = orderFor({ price: 1 });
  it('the live echo of a rent answer changes nothing; a code or a cancel does', () => {
    expect(classifyOrderChange(undefined, o)).toBe('new');
    expect(classifyOrderChange(o, { ...o })).toBe('echo');
    expect(classifyOrderChange(o, { ...o, status: 'SUCCESS', codeText: '1' })).toBe('status');
    expect(
      classifyOrderChange(
        { ...o, status: 'SUCCESS', codeText: '1' },
        { ...o, status: 'SUCCESS', codeText: '2' },
      ),
    ).toBe('code');
  });
});
