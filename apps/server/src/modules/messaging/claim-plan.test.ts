import { describe, expect, it } from 'vitest';
import {
  claimCapacity,
  type PlanCandidate,
  type PlanSettings,
  planClaim,
  type ReadySim,
} from './claim-plan.ts';

const now = new Date('2026-01-01T12:00:00Z');
const at = (ms: number) => new Date(now.getTime() + ms);
/** 10 a minute, 60 s ticks: an idle SIM has 10 slots. */
const settings: PlanSettings = { intervalMs: 6_000, horizonMs: 60_000, maxPerSimPerTick: 50 };

const sim = (id: string, o: Partial<ReadySim> = {}): ReadySim => ({
  id,
  nextAt: at(-3_600_000),
  remaining: null,
  ...o,
});
const msg = (id: string, o: Partial<PlanCandidate> = {}): PlanCandidate => ({
  id,
  tried_sims: [],
  prev_sim: null,
  conv_sim: null,
  pinned_sim: null,
  ...o,
});

interface Row {
  name: string;
  ready: ReadySim[];
  pool?: string[];
  expired?: PlanCandidate[];
  queued?: PlanCandidate[];
  settings?: Partial<PlanSettings>;
  /** message id → SIM id, in the order taken. */
  take: [string, string][];
  pace?: Record<string, number>;
}

const rows: Row[] = [
  {
    name: 'spreads messages over the free SIMs in turn',
    ready: [sim('A'), sim('B')],
    queued: [msg('1'), msg('2'), msg('3')],
    take: [
      ['1', 'A'],
      ['2', 'B'],
      ['3', 'A'],
    ],
    pace: { A: 12_000, B: 6_000 },
  },
  {
    name: 'an idle SIM takes at most its slots of one tick',
    ready: [sim('A')],
    settings: { intervalMs: 20_000 },
    queued: [msg('1'), msg('2'), msg('3'), msg('4')],
    take: [
      ['1', 'A'],
      ['2', 'A'],
      ['3', 'A'],
    ],
    pace: { A: 60_000 },
  },
  {
    name: 'never more than maxPerSimPerTick',
    ready: [sim('A')],
    settings: { maxPerSimPerTick: 2 },
    queued: [msg('1'), msg('2'), msg('3')],
    take: [
      ['1', 'A'],
      ['2', 'A'],
    ],
  },
  {
    name: 'a SIM busy until a moment ago continues from its next slot (fewer slots left)',
    ready: [sim('A', { nextAt: at(42_000) })],
    queued: [msg('1'), msg('2'), msg('3'), msg('4')],
    take: [
      ['1', 'A'],
      ['2', 'A'],
      ['3', 'A'],
    ],
    pace: { A: 60_000 },
  },
  {
    name: 'a SIM with no slot left in the horizon still gets one',
    ready: [sim('A', { nextAt: at(59_999) })],
    queued: [msg('1'), msg('2')],
    take: [['1', 'A']],
    pace: { A: 65_999 },
  },
  {
    name: 'the day/month remaining caps a SIM; 0 left takes nothing',
    ready: [sim('A', { remaining: 1 }), sim('B', { remaining: 0 }), sim('C', { remaining: -3 })],
    queued: [msg('1'), msg('2'), msg('3')],
    take: [['1', 'A']],
    pace: { A: 6_000 },
  },
  {
    name: 'a pinned message goes only to its SIM, and waits when that SIM has no room or is not ready',
    ready: [sim('A', { remaining: 1 }), sim('B')],
    queued: [
      msg('1', { pinned_sim: 'A' }),
      msg('2', { pinned_sim: 'A' }),
      msg('3', { pinned_sim: 'X' }),
      msg('4'),
    ],
    take: [
      ['1', 'A'],
      ['4', 'B'],
    ],
  },
  {
    name: "a message goes to its conversation's SIM when it has room",
    ready: [sim('A'), sim('B')],
    queued: [msg('1', { conv_sim: 'B' }), msg('2', { conv_sim: 'B' }), msg('3')],
    take: [
      ['1', 'B'],
      ['2', 'B'],
      ['3', 'A'],
    ],
  },
  {
    name: 'SIMs a message failed on are avoided, its conversation SIM too',
    ready: [sim('A'), sim('B')],
    queued: [msg('1', { tried_sims: ['A'] }), msg('2', { tried_sims: ['B'], conv_sim: 'B' })],
    take: [
      ['1', 'B'],
      ['2', 'A'],
    ],
  },
  {
    name: 'a message every pool SIM failed may try any again',
    ready: [sim('A')],
    pool: ['A', 'B'],
    queued: [msg('1', { tried_sims: ['A', 'B'] }), msg('2', { tried_sims: ['A'] })],
    take: [['1', 'A']],
  },
  {
    name: 'an expired claim goes back to its SIM (pool, even if tried); without room there it waits',
    ready: [sim('A', { remaining: 1 }), sim('B')],
    expired: [
      msg('e1', { prev_sim: 'A', tried_sims: ['A'] }),
      msg('e2', { prev_sim: 'A' }),
      msg('e3', { prev_sim: 'C' }),
    ],
    pool: ['A', 'B', 'C'],
    take: [['e1', 'A']],
  },
  {
    name: 'an expired claim whose SIM left the pool goes to a free SIM; a pinned one waits',
    ready: [sim('A'), sim('B')],
    expired: [msg('e1', { prev_sim: 'Z', tried_sims: ['A'] }), msg('e2', { prev_sim: 'Z', pinned_sim: 'Z' })],
    queued: [msg('1')],
    take: [
      ['e1', 'B'],
      ['1', 'A'],
    ],
  },
  {
    name: 'expired claims come before queued messages and the capacity ends the claim',
    ready: [sim('A', { remaining: 2 })],
    expired: [msg('e1')],
    queued: [msg('1'), msg('2')],
    take: [
      ['e1', 'A'],
      ['1', 'A'],
    ],
    pace: { A: 12_000 },
  },
  {
    name: 'keeps the order given: the capacity goes to the first candidates, whatever SIM later ones prefer',
    ready: [sim('A', { remaining: 2 }), sim('B', { remaining: 1 })],
    queued: [
      msg('1', { conv_sim: 'B' }),
      msg('2', { conv_sim: 'B' }),
      msg('3', { pinned_sim: 'B' }),
      msg('4'),
      msg('5', { conv_sim: 'A' }),
    ],
    take: [
      ['1', 'B'],
      ['2', 'A'],
      ['4', 'A'],
    ],
  },
  {
    name: 'nothing ready: nothing taken, no pace',
    ready: [],
    pool: ['A'],
    queued: [msg('1')],
    take: [],
    pace: {},
  },
];

describe('planClaim', () => {
  it.each(rows)('$name', (row) => {
    const s = { ...settings, ...row.settings };
    const plan = planClaim({
      expired: row.expired ?? [],
      queued: row.queued ?? [],
      ready: row.ready,
      pool: row.pool ?? row.ready.map((r) => r.id),
      now,
      settings: s,
    });
    expect(plan.take.map((t) => [t.message.id, t.simId])).toEqual(row.take);
    if (row.pace)
      expect(
        Object.fromEntries(plan.pace.map((p) => [p.sim_id, p.next_at.getTime() - now.getTime()])),
      ).toEqual(row.pace);
    // Never more than the capacity, never a message twice.
    expect(plan.take.length).toBeLessThanOrEqual(claimCapacity(row.ready, now, s));
    expect(new Set(plan.take.map((t) => t.message.id)).size).toBe(plan.take.length);
  });
});

describe('claimCapacity', () => {
  it.each([
    { name: 'idle SIMs: one tick of slots each', ready: [sim('A'), sim('B')], total: 20 },
    {
      name: 'capped by remaining',
      ready: [sim('A', { remaining: 3 }), sim('B', { remaining: 0 })],
      total: 3,
    },
    { name: 'a busy SIM: what is left of the tick', ready: [sim('A', { nextAt: at(30_000) })], total: 5 },
    { name: 'none', ready: [], total: 0 },
  ])('$name', ({ ready, total }) => {
    expect(claimCapacity(ready, now, settings)).toBe(total);
  });
});
