import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { orderFor } from '../test/utils.tsx';
import { applyOrder, myOrdersQuery, statsQuery } from './orders.ts';

describe('applyOrder', () => {
  it('a Finish (the status stays SUCCESS) refreshes Active Numbers', () => {
    const qc = new QueryClient();
    const open = orderFor({ status: 'SUCCESS', codeText: '1234' });
    qc.setQueryData(myOrdersQuery.queryKey, [open]);
    qc.setQueryData(statsQuery.queryKey, { activeNumbers: 1, dailyRentals: 1, uptime: null });
    applyOrder(qc, { ...open, finished: true });
    expect(qc.getQueryState(statsQuery.queryKey)?.isInvalidated).toBe(true);
  });

  it('a repeated event changes nothing', () => {
    const qc = new QueryClient();
    const open = orderFor({ status: 'SUCCESS', codeText: '1234' });
    qc.setQueryData(myOrdersQuery.queryKey, [open]);
    qc.setQueryData(statsQuery.queryKey, { activeNumbers: 1, dailyRentals: 1, uptime: null });
    applyOrder(qc, { ...open });
    expect(qc.getQueryState(statsQuery.queryKey)?.isInvalidated).toBe(false);
  });
});
