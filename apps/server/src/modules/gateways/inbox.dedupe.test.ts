import { describe, expect, it } from 'vitest';
import type { Queryable } from '../../db/db.ts';
import { dedupeKey } from './inbox.service.ts';

// An SMS with a device time needs no database for its key.
const noDb = {} as Queryable;

describe('dedupeKey', () => {
  const sms = {
    gatewayId: '6f1c2a9e-0b7d-4c1e-9a53-2f4e8b1d7c60',
    port: '1.01',
    ts: 1764200000,
    sender: 'Telegram',
    recipient: null,
    isReport: false,
    text: 'Telegram code: 48213 ✓',
  };
  const at = new Date('2026-11-27T00:00:00Z');

  it('stays the key already stored for the same SMS: a new key would store the catch-up re-reads again', async () => {
    expect(await dedupeKey(noDb, sms, at)).toBe(
      '6ddadaab6149c47f0ed5f71576b6ace018bd6609d3a5e29bdc2943da82790fba',
    );
  });

  it('differs when the text, the device time or the port differs, not when it arrives later', async () => {
    const key = await dedupeKey(noDb, sms, at);
    expect(await dedupeKey(noDb, sms, new Date(at.getTime() + 60_000))).toBe(key);
    expect(await dedupeKey(noDb, { ...sms, text: 'Telegram code: 48214 ✓' }, at)).not.toBe(key);
    expect(await dedupeKey(noDb, { ...sms, ts: sms.ts + 1 }, at)).not.toBe(key);
    expect(await dedupeKey(noDb, { ...sms, port: '1.02' }, at)).not.toBe(key);
    expect(await dedupeKey(noDb, { ...sms, isReport: true }, at)).not.toBe(key);
  });
});
