import { describe, expect, it } from 'vitest';
import { type AppEvent, EVENTS_CHANNEL, eventPayload, listenEvents, publish } from './events.ts';
import { openTestDb, TEST_DB } from './test/harness.ts';

describe('listenEvents', () => {
  it('hears a committed event, parsed when it came as text; ignores text that is no event', async () => {
    const t = await openTestDb({ migrated: true });
    try {
      const heard: Readonly<AppEvent>[] = [];
      await listenEvents(t.db, (e) => heard.push(e));
      const published: AppEvent = { type: 'payment', userId: 'u1', paymentId: 'p1' };
      await t.db.tx((q) => publish(q, published));
      // As another process's event arrives: its text only (and one that is not an event at all).
      const fromElsewhere: AppEvent = { type: 'gateway', gatewayId: 'g1' };
      await t.db.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, 'not json']);
      await t.db.query('SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, eventPayload(fromElsewhere)]);
      for (let i = 0; heard.length < 2 && i < 500; i++) await new Promise((r) => setTimeout(r, 10));
      expect(heard).toEqual([published, fromElsewhere]);
      // On PostgreSQL a process alone hands its own listeners the event it published, unparsed.
      if (TEST_DB === 'pg') expect(heard[0]).toBe(published);
    } finally {
      await t.drop();
    }
  });
});
