import { copyFileSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ConversationFilter, endpoints, QueryConversationBody } from '@simdock/contract';
import type { GatewaySim } from '@simdock/gateway-sim';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../db/db.ts';
import { migrate } from '../../db/migrate.ts';
import { waitFor } from '../../test/fixtures.ts';
import { openTestDb, type TestServer } from '../../test/harness.ts';
import { openSse } from '../../test/sse.ts';
import { dispatchUntil, serverWithTwoUsersAndSimGateway } from '../../test/suites.ts';
import { listConversations, unreadTotals } from './chat.queries.ts';

// Chat as a reply inbox, against a simulated gateway over the real protocol: after a campaign to 40
// numbers and a follow-up to those who stayed silent, the two who answered are listed first (not
// 39th and 40th), the Unread and Replied filters keep only them, reading one takes it out of
// Unread, and the Chat badge counts conversations with unread replies.

let s: TestServer;
let alice: { id: string; token: string };
let bob: { id: string; token: string };
let sim: GatewaySim;
let gatewayId: string;

serverWithTwoUsersAndSimGateway({ ports: 8, name: 'inbox gw' }, (t) => {
  ({ s, alice, bob, sim, gatewayId } = t);
});

/** Dispatcher ticks (one simulated second each) until `done` holds. */
const tickUntil = (done: () => Promise<boolean>, ticks = 60) =>
  dispatchUntil({ s, sim, gatewayId }, done, ticks);

/** A campaign to `numbers`, delivered; each recipient's conversation and the port that wrote. */
async function campaign(numbers: string[], text: string) {
  s.clock.advance(60_000);
  const sent = await s.api(endpoints.outreach.sendMassSms, {
    body: { number: numbers.join('\n'), mess: text },
    token: alice.token,
  });
  expect(sent.status).toBe(200);
  const rows = () =>
    s.db.query<{ recipient: string; status: string; port: string; conversation_id: string }>(
      `SELECT recipient, status, port, conversation_id::text AS conversation_id FROM messages
        WHERE campaign_id = $1::bigint ORDER BY id`,
      [sent.body.data!.campaignId],
    );
  await tickUntil(async () => (await rows()).every((r) => r.status === 'delivered'));
  return (await rows()).map((r) => ({ number: r.recipient, port: r.port, id: r.conversation_id }));
}

interface Listed {
  conversationId: string;
  receiver: string;
  latestSms: string;
  latestTime: number;
  isRead: boolean;
  unreadCount: number;
}

/** The list as the page asks for it: `body` undefined sends no body at all. */
async function list(token: string, body?: unknown): Promise<Listed[]> {
  const res = await s.api(endpoints.livechat.queryConversation, { rawBody: body, token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.records as Listed[];
}
const ids = (l: Listed[]) => l.map((c) => c.conversationId);
const filtered = (filter: ConversationFilter, token = alice.token) => list(token, { filter });

async function count(token: string, body?: unknown) {
  const res = await s.api(endpoints.livechat.unreadCount, { rawBody: body, token });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data as { conversations: number; replies: number };
}

const numbers = Array.from({ length: 40 }, (_, i) => String(16105550100 + i));
let convs: { number: string; port: string; id: string }[];
/** The two recipients who answer: the 8th and the 24th of the campaign. */
let first: { number: string; port: string; id: string };
let second: { number: string; port: string; id: string };

function recipientWrites(c: { port: string; number: string }, text: string) {
  s.clock.advance(1000);
  sim.injectSms({ port: c.port, from: `+${c.number}`, text, ts: Math.floor(s.clock.now().getTime() / 1000) });
}

describe('Chat as a reply inbox: a campaign to 40 numbers, 2 replies', () => {
  beforeAll(async () => {
    convs = await campaign(numbers, 'Spring sale: 20% off this week.');
    expect(new Set(convs.map((c) => c.id)).size).toBe(40);
    first = convs[7]!;
    second = convs[23]!;
    recipientWrites(first, 'Is the sale on shoes too?');
    await waitFor(async () => (await count(alice.token)).conversations === 1);
    recipientWrites(second, 'Yes please');
    recipientWrites(second, 'Call me tomorrow');
    await waitFor(async () => (await count(alice.token)).replies === 3);
    // A reminder to the 38 who stayed silent: now they are the newest conversations.
    const silent = numbers.filter((n) => n !== first.number && n !== second.number);
    await campaign(silent, 'Last day of the sale!');
  }, 120_000);

  it('lists the two conversations with unread replies first, then the rest newest first', async () => {
    const records = await list(alice.token);
    expect(records).toHaveLength(40);
    // The latest reply first; newest first alone would put them 39th and 40th.
    expect(ids(records.slice(0, 2))).toEqual([second.id, first.id]);
    expect(records[0]).toMatchObject({ isRead: false, unreadCount: 2, latestSms: 'Call me tomorrow' });
    expect(records[1]).toMatchObject({ isRead: false, unreadCount: 1 });
    const rest = records.slice(2);
    expect(rest.every((c) => c.isRead && c.latestSms === 'Last day of the sale!')).toBe(true);
    expect(rest.every((c) => c.latestTime > records[0]!.latestTime)).toBe(true);
    const times = rest.map((c) => c.latestTime);
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // The spec's empty payload, `{}` and `filter: 'all'` are the same list.
    expect(ids(await list(alice.token, {}))).toEqual(ids(records));
    expect(ids(await filtered('all'))).toEqual(ids(records));
  });

  it('Unread and Replied keep only the conversations that answered; others see none of them', async () => {
    expect(ids(await filtered('unread'))).toEqual([second.id, first.id]);
    expect(ids(await filtered('replied'))).toEqual([second.id, first.id]);
    expect(await filtered('unread', bob.token)).toEqual([]);
    expect(await filtered('replied', bob.token)).toEqual([]);
    expect(await list(bob.token)).toEqual([]);
    // An unknown filter is refused, not read as "all".
    const bad = await s.api(endpoints.livechat.queryConversation, {
      rawBody: { filter: 'spam' },
      token: alice.token,
    });
    expect(bad.status).toBe(400);
    expect(QueryConversationBody.safeParse(undefined).success).toBe(true);
    expect(QueryConversationBody.safeParse({}).success).toBe(true);
  });

  it('the Chat badge counts conversations with unread replies (and the replies), per user', async () => {
    expect(await count(alice.token)).toEqual({ conversations: 2, replies: 3 });
    expect(await count(alice.token, {})).toEqual({ conversations: 2, replies: 3 });
    expect(await count(bob.token)).toEqual({ conversations: 0, replies: 0 });
    expect((await s.api(endpoints.livechat.unreadCount)).status).toBe(401);
  });

  it('reading a conversation clears it from Unread, keeps it in Replied, lowers the count and says so live', async () => {
    const stream = await openSse(`${s.url}/api/Order/stream`, alice.token);
    try {
      const opened = await s.api(endpoints.livechat.queryConversationDetail, {
        body: { conversationId: second.id },
        token: alice.token,
      });
      expect(opened.status).toBe(200);
      // The event the pages refetch the list and the badge on.
      const ev = await stream.next((e) => e.event === 'conversation');
      expect(JSON.parse(ev.data)).toMatchObject({ conversationId: second.id, unreadCount: 0 });
    } finally {
      stream.close();
    }
    expect(ids(await filtered('unread'))).toEqual([first.id]);
    // Unread first, then newest first: the read one follows the unread one.
    expect(ids(await filtered('replied'))).toEqual([first.id, second.id]);
    expect(await count(alice.token)).toEqual({ conversations: 1, replies: 1 });
    const all = await list(alice.token);
    expect(all[0]!.conversationId).toBe(first.id);
    // Read, it takes its newest-first place: older than the 38 reminders.
    expect(all.at(-1)).toMatchObject({ conversationId: second.id, isRead: true, unreadCount: 0 });
  });

  it('a first reply from a silent recipient brings that conversation to the top and into Replied', async () => {
    const late = convs[0]!;
    recipientWrites(late, 'Sorry, only saw this now');
    await waitFor(async () => (await count(alice.token)).conversations === 2);
    expect(ids(await filtered('unread'))).toEqual([late.id, first.id]);
    expect(ids(await filtered('replied'))).toEqual([late.id, first.id, second.id]);
    expect(ids((await list(alice.token)).slice(0, 2))).toEqual([late.id, first.id]);
    expect(await count(alice.token)).toEqual({ conversations: 2, replies: 2 });
  });

  it('orders off an index, with no sort, whatever the filter; the badge reads the index too', async () => {
    const plans: string[] = [];
    await s.db.tx(async (q) => {
      // Every other way off: a plan that had to sort would show a Sort node.
      await q.query('SET LOCAL enable_seqscan = off');
      await q.query('SET LOCAL enable_bitmapscan = off');
      await q.query('SET LOCAL enable_sort = off');
      const explain: Queryable = {
        ...q,
        query: async <T>(sql: string, params?: unknown[]) => {
          const rows = await q.query<Record<string, string>>(`EXPLAIN ${sql}`, params);
          plans.push(rows.map((r) => Object.values(r)[0]).join('\n'));
          return [] as T[];
        },
      };
      for (const filter of ['all', 'unread', 'replied'] as const)
        await listConversations(explain, alice.id, filter);
      await unreadTotals(explain, alice.id);
    });
    const [all, unread, replied, badge] = plans;
    expect(all).toContain('conversations_user_inbox');
    // Unread is a range of that index (an index condition, not a filter over every row).
    expect(unread).toContain('conversations_user_inbox');
    expect(unread).toMatch(/Index Cond: .*\(unread_count > 0\) = true/);
    expect(replied).toContain('conversations_user_replied');
    for (const plan of [all, unread, replied]) expect(plan).not.toMatch(/Sort/);
    expect(badge).toMatch(/conversations_user_inbox[\s\S]*Index Cond: .*\(unread_count > 0\) = true/);
  });
});

describe('migration 016_chat_inbox', () => {
  it('backfills last_reply_at with each conversation’s latest stored reply', async () => {
    const all = join(dirname(fileURLToPath(import.meta.url)), '../../db/migrations');
    const before = mkdtempSync(join(tmpdir(), 'simdock-016-'));
    for (const f of readdirSync(all).filter((f) => f.endsWith('.sql') && f < '016_'))
      copyFileSync(join(all, f), join(before, f));
    const t = await openTestDb();
    try {
      await migrate(t.db, before);
      const [u] = await t.db.query<{ id: string }>(
        `INSERT INTO users (username, email, password_hash) VALUES ('m016', 'm016@example.com', 'x') RETURNING id`,
      );
      const conv = async (receiver: string) =>
        (
          await t.db.query<{ id: string }>(
            `INSERT INTO conversations (user_id, receiver, latest_time, created_at)
             VALUES ($1, $2, now(), now()) RETURNING id::text AS id`,
            [u!.id, receiver],
          )
        )[0]!.id;
      const answered = await conv('16105550001');
      const silent = await conv('16105550002');
      for (const at of ['2030-01-02T10:00:00Z', '2030-01-03T09:00:00Z']) {
        await t.db.query(
          `INSERT INTO conversation_replies (conversation_id, user_id, sms_id, sender, body, received_at)
           VALUES ($1::bigint, $2, gen_random_uuid(), '16105550001', 'hi', $3)`,
          [answered, u!.id, at],
        );
      }
      expect(await migrate(t.db, all)).toContain('016_chat_inbox.sql');
      const rows = await t.db.query<{ id: string; last_reply_at: Date | null }>(
        'SELECT id::text AS id, last_reply_at FROM conversations ORDER BY id',
      );
      expect(rows).toEqual([
        { id: answered, last_reply_at: new Date('2030-01-03T09:00:00Z') },
        { id: silent, last_reply_at: null },
      ]);
    } finally {
      await t.drop();
    }
  });
});
