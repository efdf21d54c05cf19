import { endpoints } from '@simdock/contract';
import { countryOfNumber } from '@simdock/contract/phone-country';
import type { GatewaySim } from '@simdock/gateway-sim';
import { describe, expect, it } from 'vitest';
import { waitFor } from '../../test/fixtures.ts';
import type { TestServer } from '../../test/harness.ts';
import { GIF, JPEG, PNG } from '../../test/media.ts';
import { openSse } from '../../test/sse.ts';
import { dispatchUntil, serverWithTwoUsersAndSimGateway } from '../../test/suites.ts';
import { dispatchOnce, failOverdueResults } from './dispatch.service.ts';
import { isComplete, MMS_MAX_BYTES, removeUnusedMedia } from './media.service.ts';

// Two-way chat and MMS against a simulated gateway over the real protocol: the recipient's reply
// lands in the conversation, our answer leaves through the same port, an MMS carries its file;
// ownership, the sticky SIM, opt-outs and upload validation.

let s: TestServer;
let admin: string;
let alice: { id: string; token: string };
let bob: { id: string; token: string };
let sim: GatewaySim;
let gatewayId: string;

// ---- files ------------------------------------------------------------------------------------

function webp(): Buffer {
  const payload = Buffer.concat([
    Buffer.from('VP8L', 'latin1'),
    Buffer.from([4, 0, 0, 0]),
    Buffer.alloc(4, 7),
  ]);
  const head = Buffer.alloc(12);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(4 + payload.length, 4);
  head.write('WEBP', 8, 'latin1');
  return Buffer.concat([head, payload]);
}
function mp4(): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftypisom', 4, 'latin1');
  ftyp.writeUInt32BE(0x200, 12);
  ftyp.write('isommp41', 16, 'latin1');
  const moov = Buffer.alloc(8);
  moov.writeUInt32BE(8, 0);
  moov.write('moov', 4, 'latin1');
  return Buffer.concat([ftyp, moov]);
}

async function upload(
  token: string | undefined,
  data: Buffer | null,
  name = 'photo.jpg',
  type = 'image/jpeg',
) {
  const form = new FormData();
  if (data) form.append('file', new Blob([new Uint8Array(data)], { type }), name);
  else form.append('note', 'no file here');
  const res = await fetch(`${s.url}/api/LiveChat/mmsUpload`, {
    method: 'POST',
    headers: token ? { authorization: `Bearer ${token}` } : {},
    body: form,
  });
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = JSON.parse(text);
  } catch {
    body = { text };
  }
  return { status: res.status, body };
}

async function media(path: string, token?: string) {
  const res = await fetch(`${s.url}/api/media/${path}`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  return { status: res.status, headers: res.headers, data: Buffer.from(await res.arrayBuffer()) };
}

// ---- the gateway and conversations ---------------------------------------------------------------

serverWithTwoUsersAndSimGateway({ ports: 4, name: 'chat gw' }, (t) => {
  ({ s, admin, alice, bob, sim, gatewayId } = t);
});

/** Dispatcher ticks (one simulated second each) until `done` holds. */
const tickUntil = (done: () => Promise<boolean>, ticks = 30) =>
  dispatchUntil({ s, sim, gatewayId }, done, ticks);

const statusOf = async (id: string) =>
  (await s.db.query<{ status: string }>('SELECT status FROM messages WHERE id = $1::bigint', [id]))[0]
    ?.status;

let numberSeq = 16005550000;

/** Alice writes to new numbers (a campaign), delivered; each conversation with the port that wrote. */
async function conversations(n: number, token = alice.token) {
  const numbers = Array.from({ length: n }, () => String(++numberSeq));
  const sent = await s.api(endpoints.outreach.sendMassSms, {
    body: { number: numbers.join('\n'), mess: 'Hello!' },
    token,
  });
  expect(sent.status).toBe(200);
  const campaignId = sent.body.data!.campaignId as string;
  const rows = () =>
    s.db.query<{ recipient: string; status: string; port: string; conversation_id: string }>(
      `SELECT recipient, status, port, conversation_id::text AS conversation_id FROM messages
        WHERE campaign_id = $1::bigint ORDER BY id`,
      [campaignId],
    );
  await tickUntil(async () => (await rows()).every((r) => r.status === 'delivered'));
  return (await rows()).map((r) => ({ number: r.recipient, port: r.port, id: r.conversation_id }));
}

function recipientWrites(port: string, from: string, text: string) {
  s.clock.advance(1000);
  sim.injectSms({ port, from, text, ts: Math.floor(s.clock.now().getTime() / 1000) });
}

const list = async (token: string) => {
  const res = await s.api(endpoints.livechat.queryConversation, { token });
  expect(res.status).toBe(200);
  return res.body.data.records as {
    conversationId: string;
    isRead: boolean;
    unreadCount: number;
    latestSms: string;
  }[];
};
const detail = (token: string, conversationId: string) =>
  s.api(endpoints.livechat.queryConversationDetail, { body: { conversationId }, token });
const reply = (token: string, body: Record<string, unknown>) =>
  s.api(endpoints.livechat.reply, { rawBody: body, token });

describe('conversations end to end with the simulator', () => {
  it("a recipient's reply lands unread, opening reads it, our answer leaves through the same port", async () => {
    const [c] = await conversations(1);
    const stream = await openSse(`${s.url}/api/Order/stream`, alice.token);
    try {
      recipientWrites(c!.port, `+${c!.number}`, 'Who is this?');
      const conv = await waitFor(async () =>
        (await list(alice.token)).find((x) => x.conversationId === c!.id && x.unreadCount === 1),
      );
      expect(conv).toMatchObject({ isRead: false, latestSms: 'Who is this?' });
      // The page refetches on the live event.
      const ev = await stream.next((e) => e.event === 'conversation');
      expect(JSON.parse(ev.data)).toMatchObject({ conversationId: c!.id, unreadCount: 1 });
      // Newest first: the conversation with the latest message leads.
      expect((await list(alice.token))[0]!.conversationId).toBe(c!.id);

      const opened = await detail(alice.token, c!.id);
      expect(opened.status).toBe(200);
      expect(opened.body.data.msgList).toMatchObject([
        { sms: 'Hello!', upDownType: 1, status: 1, result: 1, mmsFile: null },
        { sms: 'Who is this?', upDownType: 0, status: null, mmsFile: null },
      ]);
      const read = (await list(alice.token)).find((x) => x.conversationId === c!.id)!;
      expect(read).toMatchObject({ isRead: true, unreadCount: 0 });
      await stream.next((e) => e.event === 'conversation' && JSON.parse(e.data).unreadCount === 0);

      const tasksBefore = sim.sentTasks().length;
      s.clock.advance(1000);
      const res = await reply(alice.token, {
        conversationId: c!.id,
        sms: 'It is Alice from the shop.',
        toNumber: c!.number,
        simNo: 1,
        mmsType: 0,
        mmsTitle: '',
        mmsFile: '',
      });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        code: 1,
        data: { sms: 'It is Alice from the shop.', upDownType: 1, status: 2 },
      });
      const messageId = String(res.body.data!.id).slice(1);
      await tickUntil(async () => (await statusOf(messageId)) === 'delivered');
      const task = sim
        .sentTasks()
        .slice(tasksBefore)
        .find((t) => t.sms === 'It is Alice from the shop.')!;
      expect(task.from).toBe(c!.port.split('.')[0]);
      expect(task.recipients).toEqual([c!.number]);
      expect(task.mms).toBeUndefined();
      // The delivery result reaches the thread, and the live stream says so.
      await stream.next(
        (e) => e.event === 'conversation' && JSON.parse(e.data).latestSms === 'It is Alice from the shop.',
      );
      const after = await detail(alice.token, c!.id);
      expect(after.body.data.msgList.at(-1)).toMatchObject({
        sms: 'It is Alice from the shop.',
        status: 1,
        result: 1,
      });
    } finally {
      stream.close();
    }
  });

  it('replies stick to each conversation’s own SIM', async () => {
    const convs = await conversations(3);
    expect(new Set(convs.map((c) => c.port)).size).toBe(3);
    const before = sim.sentTasks().length;
    const ids: string[] = [];
    for (const c of convs) {
      const res = await reply(alice.token, {
        conversationId: c.id,
        sms: `for ${c.number}`,
        toNumber: c.number,
      });
      expect(res.status).toBe(200);
      ids.push(String(res.body.data!.id).slice(1));
    }
    await tickUntil(async () => (await Promise.all(ids.map(statusOf))).every((x) => x === 'delivered'));
    for (const c of convs) {
      const t = sim
        .sentTasks()
        .slice(before)
        .find((x) => x.sms === `for ${c.number}`)!;
      expect(t.from, c.number).toBe(c.port.split('.')[0]);
    }
  });

  it('an MMS reply reaches the simulator with its attachment, and its file shows in the thread', async () => {
    const [c] = await conversations(1);
    const up = await upload(alice.token, PNG, 'cat.png', 'image/png');
    expect(up.status).toBe(200);
    const fileName = up.body.fileName as string;
    const before = sim.sentTasks().length;
    const res = await reply(alice.token, {
      conversationId: c!.id,
      sms: '',
      toNumber: c!.number,
      simNo: 1,
      mmsType: 1,
      mmsTitle: 'Our cat',
      mmsFile: fileName,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ mmsFile: fileName, upDownType: 1 });
    const id = String(res.body.data!.id).slice(1);
    await tickUntil(async () => (await statusOf(id)) === 'delivered');
    const task = sim
      .sentTasks()
      .slice(before)
      .find((t) => t.recipients[0] === c!.number)!;
    expect(task.status).toBe('0 OK');
    expect(task.from).toBe(c!.port.split('.')[0]);
    expect(task.mms?.title).toBe('Our cat');
    expect(task.mms?.attachments).toHaveLength(1);
    expect(task.mms!.attachments[0]!.type).toBe('png');
    expect(Buffer.compare(task.mms!.attachments[0]!.data, PNG)).toBe(0);
    const opened = (await detail(alice.token, c!.id)).body.data;
    // A box sends pictures: the page offers the attach button.
    expect(opened.pictures).toBe(true);
    const thread = opened.msgList;
    expect(thread.at(-1)).toMatchObject({ mmsFile: fileName, status: 1 });
    expect((await list(alice.token)).find((x) => x.conversationId === c!.id)!.latestSms).toBe('[MMS]');
    // History marks the picture message as one, and only it.
    const history = await s.api(endpoints.history.queryMsg, {
      body: { current: 1, size: 500, params: {} },
      token: alice.token,
    });
    const records = history.body.data.records as { id: string; mms: boolean }[];
    expect(records.find((r) => r.id === id)?.mms).toBe(true);
    expect(records.filter((r) => r.id !== id).every((r) => r.mms === false)).toBe(true);
    // Someone else's file cannot be attached.
    const theirs = await upload(bob.token, GIF, 'x.gif', 'image/gif');
    const stolen = await reply(alice.token, {
      conversationId: c!.id,
      sms: 'x',
      toNumber: c!.number,
      mmsFile: theirs.body.fileName,
    });
    expect(stolen.status).toBe(404);
  });
});

describe('incoming MMS', () => {
  it('a picture the recipient sends shows in the thread, served to the owner', async () => {
    const [c] = await conversations(1);
    const url = sim.smsUrl!.replace(/\/sms(\?.*)?$/, '/mms');
    s.clock.advance(1000);
    const status = await sim.pushMms(url, {
      port: c!.port,
      from: c!.number,
      subject: 'Look',
      text: 'Our new place',
      attachments: [{ contentType: 'image/gif', data: GIF }],
    });
    expect(status).toBe(200);
    const conv = await waitFor(async () =>
      (await list(alice.token)).find((x) => x.conversationId === c!.id && x.unreadCount === 1),
    );
    expect(conv.latestSms).toBe('Our new place');
    const last = (await detail(alice.token, c!.id)).body.data.msgList.at(-1);
    expect(last).toMatchObject({ upDownType: 0, sms: 'Our new place' });
    expect(last!.mmsFile).toMatch(/^[A-Za-z0-9_-]{22}\.gif$/);
    const got = await media(last!.mmsFile!, alice.token);
    expect(got.status).toBe(200);
    expect(Buffer.compare(got.data, GIF)).toBe(0);
    expect((await media(last!.mmsFile!, bob.token)).status).toBe(404);
    // A file that is not an allowed picture is not kept; the text still arrives.
    s.clock.advance(1000);
    await sim.pushMms(url, {
      port: c!.port,
      from: c!.number,
      attachments: [{ contentType: 'image/jpeg', data: Buffer.from('<html>not a picture</html>') }],
    });
    const second = await waitFor(async () => {
      const l = (await detail(alice.token, c!.id)).body.data.msgList;
      return l.length === 3 ? l.at(-1) : undefined;
    });
    expect(second).toMatchObject({ sms: '[MMS]', mmsFile: null });
  });

  it('refuses a push that is not an MMS, and one with a wrong secret', async () => {
    const url = sim.smsUrl!.replace(/\/sms(\?.*)?$/, '/mms');
    const bad = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'multipart/related; boundary=x' },
      body: 'junk',
    });
    expect(bad.status).toBe(400);
    const wrong = await fetch(url.replace(/\/[^/]+\/mms$/, '/wrongsecret/mms'), {
      method: 'POST',
      headers: { 'content-type': 'multipart/related; boundary=x' },
      body: '--x--',
    });
    expect(wrong.status).toBeGreaterThanOrEqual(400);
    expect(wrong.status).toBeLessThan(500);
  });
});

describe('rules', () => {
  it('another user can neither read, edit nor reply to a conversation (404), nor list it', async () => {
    const [c] = await conversations(1);
    expect((await detail(bob.token, c!.id)).status).toBe(404);
    const edit = await s.api(endpoints.livechat.updateConversation, {
      body: { conversationId: c!.id, contactName: 'x', note: '' },
      token: bob.token,
    });
    expect(edit.status).toBe(404);
    const r = await reply(bob.token, { conversationId: c!.id, sms: 'hi', toNumber: c!.number });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe('conversation_not_found');
    expect((await list(bob.token)).some((x) => x.conversationId === c!.id)).toBe(false);
    for (const bad of ['abc', '0', '99999999999999999', '-1', '1 OR 1=1'])
      expect((await detail(alice.token, bad)).status, bad).toBe(404);
  });

  it('edits the contact name and note (trimmed) and refuses invalid text', async () => {
    const [c] = await conversations(1);
    const res = await s.api(endpoints.livechat.updateConversation, {
      body: { conversationId: c!.id, contactName: '  Jane Roe ', note: ' VIP ' },
      token: alice.token,
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      code: 1,
      data: { conversationId: c!.id, contactName: 'Jane Roe', note: 'VIP' },
    });
    expect((await list(alice.token)).find((x) => x.conversationId === c!.id)).toMatchObject({
      contactName: 'Jane Roe',
    });
    const nul = await s.api(endpoints.livechat.updateConversation, {
      body: { conversationId: c!.id, contactName: 'a\u0000b', note: '' },
      token: alice.token,
    });
    expect(nul.status).toBe(400);
    const empty = await reply(alice.token, { conversationId: c!.id, sms: '   ', toNumber: c!.number });
    expect(empty.status).toBe(400);
    const wrongNumber = await reply(alice.token, {
      conversationId: c!.id,
      sms: 'hi',
      toNumber: '15550001111',
    });
    expect(wrongNumber.status).toBe(400);
  });

  it('respects an opt-out (409) and stores nothing', async () => {
    const [c] = await conversations(1);
    recipientWrites(c!.port, c!.number, 'STOP');
    await waitFor(async () =>
      (await list(alice.token)).find((x) => x.conversationId === c!.id && x.latestSms === 'STOP'),
    );
    const count = async () =>
      (
        await s.db.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM messages WHERE conversation_id = $1::bigint',
          [c!.id],
        )
      )[0]!.n;
    const n = await count();
    const res = await reply(alice.token, { conversationId: c!.id, sms: 'Please?', toNumber: c!.number });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('opted_out');
    expect(res.body.msg).toMatch(/opted out/);
    expect(await count()).toBe(n);
  });

  it('refuses clearly when the conversation’s SIM cannot send, and never uses another SIM', async () => {
    const [c] = await conversations(1);
    const body = { conversationId: c!.id, sms: 'hello again', toNumber: c!.number };
    await s.db.query('UPDATE gateways SET is_enable = false WHERE id = $1', [gatewayId]);
    let res = await reply(alice.token, body);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ error: 'sim_unavailable' });
    expect(res.body.msg).toMatch(/gateway is disabled/);
    await s.db.query('UPDATE gateways SET is_enable = true, last_update = $2 WHERE id = $1', [
      gatewayId,
      new Date(s.clock.now().getTime() - 3600_000),
    ]);
    res = await reply(alice.token, body);
    expect(res.body.msg).toMatch(/gateway is offline/);
    await s.db.query('UPDATE gateways SET last_update = $2 WHERE id = $1', [gatewayId, s.clock.now()]);
    // The SIM's slot is gone from the inventory.
    const [simRow] = await s.db.query<{ id: string; port: string }>(
      'SELECT c.sim_id AS id, c.port FROM conversations c WHERE c.id = $1::bigint',
      [c!.id],
    );
    await s.db.query(
      "UPDATE conversations SET sim_id = '00000000-0000-4000-8000-000000000001' WHERE id = $1::bigint",
      [c!.id],
    );
    res = await reply(alice.token, body);
    expect(res.status).toBe(409);
    expect(res.body.msg).toMatch(/removed/);
    await s.db.query('UPDATE conversations SET sim_id = $2 WHERE id = $1::bigint', [c!.id, simRow!.id]);
    // A conversation whose message never left has no number to reply from.
    await s.db.query('UPDATE conversations SET sim_id = NULL WHERE id = $1::bigint', [c!.id]);
    res = await reply(alice.token, body);
    expect(res.body.msg).toMatch(/no SIM has sent/);
    await s.db.query('UPDATE conversations SET sim_id = $2 WHERE id = $1::bigint', [c!.id, simRow!.id]);

    // Queued while the SIM could send, then the SIM stops: the reply waits for it and is never
    // handed to another SIM; after the result timeout it fails with the reason.
    res = await reply(alice.token, body);
    expect(res.status).toBe(200);
    const id = String(res.body.data!.id).slice(1);
    await s.db.query("UPDATE sims SET state = 'empty' WHERE id = $1", [simRow!.id]);
    const before = sim.sentTasks().length;
    for (let i = 0; i < 3; i++) {
      await dispatchOnce(s.ctx);
      s.clock.advance(1000);
    }
    expect(sim.sentTasks().length).toBe(before);
    expect(await statusOf(id)).toBe('queued');
    s.clock.advance(11 * 60_000);
    await failOverdueResults(s.ctx);
    expect(await statusOf(id)).toBe('failed');
    await s.db.query("UPDATE sims SET state = 'ready' WHERE id = $1", [simRow!.id]);
  });

  it('replies waiting for their SIM do not hold up other messages', async () => {
    const [c] = await conversations(1);
    const ids: string[] = [];
    for (let i = 0; i < 12; i++) {
      const res = await reply(alice.token, {
        conversationId: c!.id,
        sms: `waiting ${i}`,
        toNumber: c!.number,
      });
      expect(res.status).toBe(200);
      ids.push(String(res.body.data!.id).slice(1));
    }
    const [conv] = await s.db.query<{ sim_id: string }>(
      'SELECT sim_id FROM conversations WHERE id = $1::bigint',
      [c!.id],
    );
    await s.db.query("UPDATE sims SET state = 'empty' WHERE id = $1", [conv!.sim_id]);
    try {
      const other = await conversations(2);
      expect(other.every((o) => o.port !== c!.port)).toBe(true);
      expect((await Promise.all(ids.map(statusOf))).every((x) => x === 'queued')).toBe(true);
    } finally {
      await s.db.query(`UPDATE messages SET status = 'cancelled' WHERE id = ANY($1::bigint[])`, [ids]);
      await s.db.query("UPDATE sims SET state = 'ready' WHERE id = $1", [conv!.sim_id]);
    }
  });

  it('counts replies against the daily limit', async () => {
    const [c] = await conversations(1);
    const [{ used }] = (await s.db.query<{ used: number }>(
      'SELECT used FROM messaging_daily_usage WHERE user_id = $1 ORDER BY day DESC LIMIT 1',
      [alice.id],
    )) as [{ used: number }];
    await s.api(endpoints.settings.update, {
      body: { MaxBatchSendSms: 1000, MaxMsgPerDay: used },
      token: admin,
    });
    try {
      const res = await reply(alice.token, { conversationId: c!.id, sms: 'over', toNumber: c!.number });
      expect(res.status).toBe(429);
      expect(res.body.error).toBe('daily_limit_reached');
    } finally {
      await s.api(endpoints.settings.update, {
        body: { MaxBatchSendSms: 1000, MaxMsgPerDay: 100000 },
        token: admin,
      });
    }
  });
});

describe('MMS uploads and media', () => {
  it('accepts JPEG, PNG, GIF, WebP and MP4 by content, under random names, served to the owner only', async () => {
    for (const [data, ext, type] of [
      [JPEG, 'jpg', 'image/jpeg'],
      [PNG, 'png', 'image/png'],
      [GIF, 'gif', 'image/gif'],
      [webp(), 'webp', 'image/webp'],
      [mp4(), 'mp4', 'video/mp4'],
    ] as const) {
      // The client's name and type do not matter: the content decides.
      const up = await upload(alice.token, data, 'whatever.bin', 'application/octet-stream');
      expect(up.status, ext).toBe(200);
      expect(up.body).toMatchObject({ code: 1 });
      const name = up.body.fileName as string;
      expect(name).toMatch(new RegExp(`^[A-Za-z0-9_-]{22}\\.${ext}$`));
      const got = await media(name, alice.token);
      expect(got.status).toBe(200);
      expect(got.headers.get('content-type')).toBe(type);
      expect(got.headers.get('x-content-type-options')).toBe('nosniff');
      expect(got.headers.get('content-disposition')).toBe(`inline; filename="${name}"`);
      expect(Buffer.compare(got.data, data)).toBe(0);
      expect((await media(name, bob.token)).status).toBe(404);
      expect((await media(name, admin)).status).toBe(200);
      expect((await media(name)).status).toBe(401);
    }
  });

  it('refuses a non-image renamed .jpg, a truncated image, an oversized file and a missing file', async () => {
    const text = await upload(alice.token, Buffer.from('hello, I am not a picture\n'.repeat(20)), 'pic.jpg');
    expect(text.status).toBe(415);
    expect(text.body.error).toBe('file_type_not_allowed');
    const html = await upload(
      alice.token,
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
      'a.png',
      'image/png',
    );
    expect(html.status).toBe(415);
    const pdf = await upload(
      alice.token,
      Buffer.from('%PDF-1.4\n%âãÏÓ\n1 0 obj\n<<>>\nendobj\n%%EOF'),
      'a.jpg',
    );
    expect(pdf.status).toBe(415);
    const truncated = await upload(alice.token, PNG.subarray(0, PNG.length - 20), 'cut.png', 'image/png');
    expect(truncated.status).toBe(415);
    expect(truncated.body.msg).toMatch(/damaged or incomplete/);
    const cutJpeg = await upload(alice.token, JPEG.subarray(0, 40), 'cut.jpg');
    expect(cutJpeg.status).toBe(415);
    const big = Buffer.concat([
      JPEG.subarray(0, JPEG.length - 2),
      Buffer.alloc(MMS_MAX_BYTES),
      Buffer.from([0xff, 0xd9]),
    ]);
    const over = await upload(alice.token, big, 'big.jpg');
    expect(over.status).toBe(413);
    const none = await upload(alice.token, null);
    expect(none.status).toBe(400);
    expect(none.body.msg).toBe('No file provided');
    const json = await s.api(endpoints.livechat.mmsUpload, { token: alice.token });
    expect(json.status).toBe(400);
    expect(json.body.msg).toBe('No file provided');
    expect((await upload(undefined, PNG, 'a.png', 'image/png')).status).toBe(401);
    const [{ n }] = (await s.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM messaging_media WHERE size > $1',
      [MMS_MAX_BYTES],
    )) as [{ n: number }];
    expect(n).toBe(0);
  });

  it('answers 404 to traversal attempts, absolute paths and unknown names', async () => {
    const up = await upload(alice.token, PNG, 'a.png', 'image/png');
    const name = up.body.fileName as string;
    for (const path of [
      '..%2f..%2f..%2fetc%2fpasswd',
      `..%2F${name}`,
      `%2e%2e%2f${name}`,
      '..%5c..%5cwindows%5cwin.ini',
      '%2fetc%2fpasswd',
      '/etc/passwd',
      'unknown.png',
      `${name}%00.png`,
      `${name}.png`,
      `.%2f${name}`,
      encodeURIComponent(`x/${name}`),
      `${'a'.repeat(90)}.png`,
    ]) {
      const res = await media(path, alice.token);
      expect(res.status, path).toBe(404);
    }
    // Longer than the router takes: refused before any lookup.
    expect((await media('a'.repeat(600), alice.token)).status).toBe(414);
  });

  it('documents the chat routes in the OpenAPI description', async () => {
    const doc = await s.call('GET', '/swagger/json');
    expect(doc.status).toBe(200);
    for (const p of [
      '/api/livechat/queryConversation',
      '/api/LiveChat/reply',
      '/api/LiveChat/mmsUpload',
      '/api/media/{fileName}',
    ])
      expect(Object.keys(doc.body.paths), p).toContain(p);
  });

  // Moves the clock a day on: keep it after the tests that sign in.
  it('removes uploads no message used after a day, and keeps the ones sent', async () => {
    const [c] = await conversations(1);
    const unused = (await upload(alice.token, PNG, 'a.png', 'image/png')).body.fileName as string;
    const used = (await upload(alice.token, PNG, 'b.png', 'image/png')).body.fileName as string;
    const r = await reply(alice.token, {
      conversationId: c!.id,
      sms: '',
      toNumber: c!.number,
      mmsType: 1,
      mmsFile: used,
    });
    expect(r.status).toBe(200);
    await s.db.query(`UPDATE messages SET status = 'cancelled' WHERE status = 'queued'`);
    s.clock.advance(25 * 3600_000);
    expect(await removeUnusedMedia(s.ctx)).toBeGreaterThanOrEqual(1);
    // (Tokens have expired by now: the table tells.)
    const left = await s.db.query<{ name: string }>(
      'SELECT name FROM messaging_media WHERE name = ANY($1::text[])',
      [[unused, used]],
    );
    expect(left.map((x) => x.name)).toEqual([used]);
  });

  it('checks completeness per format', () => {
    expect(isComplete('png', PNG)).toBe(true);
    expect(isComplete('gif', GIF)).toBe(true);
    expect(isComplete('jpg', JPEG)).toBe(true);
    expect(isComplete('webp', webp())).toBe(true);
    expect(isComplete('mp4', mp4())).toBe(true);
    expect(isComplete('webp', webp().subarray(0, 20))).toBe(false);
    expect(isComplete('mp4', mp4().subarray(0, 28))).toBe(false);
    expect(isComplete('mp4', mp4().subarray(0, 24))).toBe(false); // no moov
    expect(isComplete('gif', GIF.subarray(0, GIF.length - 1))).toBe(false);
  });
});

describe('replies priced by the contact’s country', () => {
  it('a reply to a country not enabled is refused (nothing queued or charged); a listed price applies', async () => {
    // Users of its own: earlier tests here move the clock past the shared sessions' expiry.
    const user = await s.createUser();
    const [c] = await conversations(1, user.token);
    const country = countryOfNumber(c!.number)!;
    const operator = await s.createUser({ roles: ['Admin9'] });
    const setCountry = (body: Record<string, unknown>) =>
      s.api(endpoints.catalogue.setMessageCountry, { rawBody: body, token: operator.token });
    const before = await s.db.query('SELECT 1 FROM messages WHERE conversation_id = $1::bigint', [c!.id]);
    try {
      expect((await setCountry({ country, enabled: false })).status).toBe(200);
      const res = await reply(user.token, { conversationId: c!.id, sms: 'Hi again', toNumber: '' });
      expect(res.status).toBe(409);
      expect(res.body).toMatchObject({ error: 'country_not_enabled' });
      expect(res.body.msg).toMatch(/^Messages to .+ \([A-Z]{2}\) are not enabled; remove that number/);
      const after = await s.db.query('SELECT 1 FROM messages WHERE conversation_id = $1::bigint', [c!.id]);
      expect(after.length).toBe(before.length);
      // Enabled at its own price: the reply costs that (Alice's balance is 0: the 402 names the cost).
      await setCountry({ country, enabled: true, smsPricePerSegment: '0.0123' });
      const priced = await reply(user.token, { conversationId: c!.id, sms: 'Hi again', toNumber: '' });
      expect(priced.status).toBe(402);
      expect(priced.body.msg).toBe('This costs $0.0123 and your balance is $0.00. Please top up.');
    } finally {
      await setCountry({ country, remove: true });
    }
  });
});
