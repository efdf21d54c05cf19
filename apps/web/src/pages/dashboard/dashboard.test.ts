import type { PublicService } from '@simdock/contract';
import { describe, expect, it } from 'vitest';
import { orderFor } from '../../test/utils.tsx';
import { mergeOrder } from './api.ts';
import { cancelState } from './OrderList.tsx';
import { filterServices } from './ServiceList.tsx';

const order = orderFor;

describe('cancelState', () => {
  const at = (iso: string) => Date.parse(iso);
  it('waits for the minimum time, then allows cancel', () => {
    expect(cancelState(order({}), at('2026-11-22T10:01:00Z'))).toBe('wait');
    expect(cancelState(order({}), at('2026-11-22T10:02:00Z'))).toBe('ready');
  });
  it('hides cancel once a code arrived or the order ended', () => {
    expect(cancelState(order({ codeText: '1234', status: 'SUCCESS' }), at('2026-11-22T10:05:00Z'))).toBe(
      'hidden',
    );
    expect(cancelState(order({ status: 'CANCEL' }), at('2026-11-22T10:05:00Z'))).toBe('hidden');
  });
});

describe('mergeOrder', () => {
  it('replaces the older copy and keeps newest first', () => {
    const list = [order({ id: '3' }), order({ id: '2' }), order({ id: '1' })];
    const merged = mergeOrder(list, order({ id: '2', status: 'SUCCESS', codeText: '999' }));
    expect(merged.map((o) => [o.id, o.status])).toEqual([
      ['3', 'WAIT_CODE'],
      ['2', 'SUCCESS'],
      ['1', 'WAIT_CODE'],
    ]);
    expect(mergeOrder(undefined, order({ id: '9' })).map((o) => o.id)).toEqual(['9']);
  });
});

describe('filterServices', () => {
  const svc = (name: string, code: string, description = ''): PublicService => ({
    id: code,
    name,
    code,
    description,
    price: 1,
    available: 1,
    rentTimeMinutes: 20,
    isRepeatable: false,
  });
  const all = [svc('Telegram', 'tg'), svc('WhatsApp', 'wa', 'Meta messenger'), svc('Google', 'go')];
  it('matches name, code or description, case-insensitively', () => {
    expect(filterServices(all, 'TELE').map((s) => s.code)).toEqual(['tg']);
    expect(filterServices(all, 'go').map((s) => s.code)).toEqual(['go']);
    expect(filterServices(all, 'messenger').map((s) => s.code)).toEqual(['wa']);
    expect(filterServices(all, '  ')).toHaveLength(3);
  });
});
