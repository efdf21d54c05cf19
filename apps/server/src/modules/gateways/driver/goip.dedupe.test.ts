import { describe, expect, it } from 'vitest';
import {
  checkReceive,
  DEFAULT_DEDUPE_CONFIG,
  type DedupeState,
  emptyDedupe,
  type ReceivedSms,
} from './goip.dedupe.ts';

// Repeats of an incoming SMS: the device's own re-sends are dropped, new SMS never are.

const { idWindowMs, contentWindowMs } = DEFAULT_DEDUPE_CONFIG;
const SMS: ReceivedSms = { lineId: 'line1', recvid: '100', sender: '+15550000002', text: 'Code 1234' };

/** Feeds SMS at the given times; answers which were repeats. */
function feed(items: [ReceivedSms, number][], config = DEFAULT_DEDUPE_CONFIG): boolean[] {
  let state: DedupeState = emptyDedupe();
  return items.map(([sms, now]) => {
    const r = checkReceive(state, sms, now, config);
    state = r.state;
    return r.duplicate;
  });
}

describe('RECEIVE repeats', () => {
  it('drops the device re-sends of the same recvid (3 s apart, up to 3 times)', () => {
    expect(
      feed([
        [SMS, 0],
        [SMS, 3000],
        [SMS, 6000],
        [SMS, 9000],
      ]),
    ).toEqual([false, true, true, true]);
  });

  it('drops a copy whose recvid changed within the content window, keeps it after', () => {
    const other = { ...SMS, recvid: '-5' };
    expect(
      feed([
        [SMS, 0],
        [other, 5000],
      ]),
    ).toEqual([false, true]);
    expect(
      feed([
        [SMS, 0],
        [other, contentWindowMs],
      ]),
    ).toEqual([false, false]);
  });

  it('drops a late repeat of the same recvid and text within the id window only', () => {
    expect(
      feed([
        [SMS, 0],
        [SMS, idWindowMs - 1],
      ]),
    ).toEqual([false, true]);
    expect(
      feed([
        [SMS, 0],
        [SMS, idWindowMs],
      ]),
    ).toEqual([false, false]);
  });

  it('keeps a new SMS that reuses a recvid (the device clock repeats)', () => {
    expect(
      feed([
        [SMS, 0],
        [{ ...SMS, text: 'Code 9999' }, 1000],
        [{ ...SMS, sender: '+15550000003' }, 2000],
      ]),
    ).toEqual([false, false, false]);
  });

  it('tells lines apart, and keeps case and whitespace significant', () => {
    expect(
      feed([
        [SMS, 0],
        [{ ...SMS, lineId: 'line2' }, 1],
        [{ ...SMS, text: 'code 1234' }, 2],
        [{ ...SMS, text: 'Code 1234 ' }, 3],
      ]),
    ).toEqual([false, false, false, false]);
  });

  it('stays bounded, forgetting the oldest first', () => {
    const config = { ...DEFAULT_DEDUPE_CONFIG, maxEntries: 4 };
    const n = (i: number) => ({ ...SMS, recvid: String(i), text: `t${i}` });
    let state = emptyDedupe();
    for (let i = 0; i < 10; i++) state = checkReceive(state, n(i), i, config).state;
    expect(state.seen.size).toBe(4);
    expect(checkReceive(state, n(9), 20, config).duplicate).toBe(true);
    expect(checkReceive(state, n(0), 20, config).duplicate).toBe(false);
  });

  it('does not change the state it was given', () => {
    const state = emptyDedupe();
    checkReceive(state, SMS, 0);
    expect(state.seen.size).toBe(0);
  });
});
