import type { Sim } from '@simdock/contract';

/** A registered, usable, unlocked SIM with no traffic yet, for this folder's tests; `over` changes fields. */
export const simFixture = (port: string, over: Partial<Sim> = {}): Sim => ({
  port,
  iccid: null,
  imsi: null,
  number: '15550001',
  numberSource: 'device',
  operator: 'Op',
  signal: 20,
  state: 'ready',
  stateText: 'Registered',
  usable: true,
  role: 'both',
  lock: { locked: false, kind: null, reason: null, since: null, until: null, by: null },
  health: {
    sentToday: 0,
    sentThisMonth: 0,
    failed: 0,
    consecutiveFailures: 0,
    received: 0,
    rentalsToday: 0,
    lastSuccess: null,
    atCap: null,
  },
  ussd: null,
  origin: { country: 'US', operator: 'Op', source: 'default', corrected: false },
  ...over,
});
