import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { allEndpoints, type EndpointDeclaration, endpointMethods } from '@simdock/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedGateway } from '../test/fixtures.ts';
import { startTestServer, type TestServer } from '../test/harness.ts';

// A call whose payload may be empty works whether the client sends no body, `{}`, or a JSON
// content type with an empty body: all three get the answer `{}` gets. Bodies that are present and
// wrong are still refused, and the routes with formats of their own answer as before.

/** Calls the spec and the web app make with no payload; listed so that none silently needs one. */
const SPEC_EMPTY_CALLS = [
  'POST /api/livechat/queryConversation',
  'POST /api/Admin/getUser',
  'POST /api/user/info',
  'POST /api/user/apikey',
  'POST /api/user/reset-key',
  'POST /api/user/delete-key',
  'POST /api/user/webhooks',
  'POST /api/user/webhooks/deliveries',
  'POST /api/Service/getall',
  'POST /api/Order/getbyuser',
  'POST /api/Order/stats',
  'POST /api/MassOutreach/getSettings',
  'POST /api/MassOutreach/campaign',
  'POST /api/Admin/overview',
  'POST /api/Admin/getSettings',
  'POST /api/Admin/getOutreachSettings',
  'POST /api/service/spentCounts',
  'POST /api/v1/orders/:id/cancel',
  'POST /api/v1/orders/:id/finish',
  'POST /api/v1/orders/:id/another-sms',
];

/** Routes with body formats of their own: their input handling is theirs, checked below. */
const OWN_FORMATS = new Set([
  'POST /api/LiveChat/mmsUpload', // multipart upload
  'POST /api/v1/media', // multipart upload
  'POST /api/Payments/ipn', // signed raw body
  'POST /stubs/handler_api.php', // SMS-Activate forms and tokens
  'POST /sandbox/pay/:id', // the sandbox provider's pay form
]);

const key = (method: string, path: string) => `${method} ${path}`;

/** Path parameters with a format of their own (else `1`). */
const PARAM_VALUE: Record<string, string> = { '/api/v1/messages/:id/cancel': 'o1' };

/** Every POST declaration whose payload may be empty: no body declared, or one that accepts `{}`. */
function emptyPayloadCalls(): { id: string; e: EndpointDeclaration }[] {
  return allEndpoints()
    .filter((e) => endpointMethods(e).includes('POST') && e.access !== 'device')
    .filter((e) => !OWN_FORMATS.has(key('POST', e.path)))
    .filter((e) => !e.body || e.body.safeParse({}).success)
    .map((e) => ({ id: key('POST', e.path), e }));
}

type Form = 'no body' | '{}' | 'json, empty';
const FORMS: Form[] = ['no body', '{}', 'json, empty'];

let s: TestServer;
let userToken: string;
/** A fresh re-authentication of that user, for the calls that need one. */
let reauth: Record<string, string>;
let adminToken: string;
let apiKey: string;
let gateway: { id: string };
let receiver: Server;

beforeAll(async () => {
  s = await startTestServer({ env: { API_RATE_LIMIT: '100000' } });
  gateway = await seedGateway(s.db, { lastUpdate: s.clock.now() });
  const user = await s.createUser();
  userToken = user.token;
  reauth = await s.reauth(user);
  // A webhook that answers, so the webhook test (all of the user's URLs when the body is empty) runs.
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.end('ok'));
  });
  await new Promise<void>((done) => receiver.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
  expect((await s.post('/api/user/webhooks/add', { url }, userToken, reauth)).status).toBe(200);
  adminToken = await s.adminToken();
  // A user of its own for the API key: the user above resets and deletes its key.
  const programs = await s.createUser();
  apiKey = (await s.post('/api/user/reset-key', {}, programs.token, await s.reauth(programs))).body.apiKey;
});
afterAll(async () => {
  await s.close();
  await new Promise((done) => receiver.close(done));
});

/** One POST in the given form, with the credential the access needs; the status and the answer. */
async function send(e: EndpointDeclaration, form: Form): Promise<{ status: number; text: string }> {
  const credential =
    e.access === 'admin' ? adminToken : e.access === 'apikey' ? apiKey : e.access === 'user' ? userToken : '';
  const headers: Record<string, string> = credential ? { authorization: `Bearer ${credential}` } : {};
  if (e.reauth) Object.assign(headers, reauth);
  if (form !== 'no body') headers['content-type'] = 'application/json';
  const path = e.path.replace(/:[A-Za-z_]+/g, PARAM_VALUE[e.path] ?? '1');
  const res = await fetch(s.url + path, {
    method: 'POST',
    headers,
    ...(form === '{}' ? { body: '{}' } : form === 'json, empty' ? { body: '' } : {}),
  });
  return { status: res.status, text: await res.text() };
}

describe('calls whose payload may be empty', () => {
  it('include every call the spec makes with no payload', () => {
    const ids = emptyPayloadCalls().map((c) => c.id);
    expect(SPEC_EMPTY_CALLS.filter((id) => !ids.includes(id))).toEqual([]);
  });

  it.each(emptyPayloadCalls())(
    '$id answers no body and an empty JSON body as it answers {}',
    async ({ e }) => {
      // Once first, so a call that changes something (a key reset, a cancel) is in its steady state.
      await send(e, '{}');
      const reference = await send(e, '{}');
      expect(reference.status, reference.text).not.toBe(400);
      expect(reference.status, reference.text).toBeLessThan(500);
      for (const form of FORMS) {
        const res = await send(e, form);
        expect([400, 415, 500], `${form}: ${res.text}`).not.toContain(res.status);
        expect(res.status, `${form}: ${res.text}`).toBe(reference.status);
      }
    },
  );

  it('answers the two calls found broken with their data', async () => {
    const conversations = allEndpoints().find((e) => e.path === '/api/livechat/queryConversation')!;
    const users = allEndpoints().find((e) => e.path === '/api/Admin/getUser')!;
    for (const form of FORMS) {
      const c = await send(conversations, form);
      expect(c.status, `${form}: ${c.text}`).toBe(200);
      expect(JSON.parse(c.text)).toMatchObject({ code: 1 });
      const u = await send(users, form);
      expect(u.status, `${form}: ${u.text}`).toBe(200);
      // The admin itself is in the list: the empty request means "the first page, default order".
      expect(u.text).toContain('"admin"');
    }
  });
});

describe('bodies that are present and wrong are still refused', () => {
  const post = (path: string, body: string | undefined, token: string, type = 'application/json') =>
    fetch(s.url + path, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': type } : {}) },
      ...(body !== undefined ? { body } : {}),
    }).then(async (r) => ({ status: r.status, body: JSON.parse(await r.text()) }));

  it('a field of the wrong type', async () => {
    const res = await post('/api/Admin/getUser', JSON.stringify({ page: 'two' }), adminToken);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 0, error: 'bad_input', field: 'page' });
  });

  it('JSON null, an array, and text that is not JSON', async () => {
    for (const body of ['null', '[]', '{', '   ']) {
      const res = await post('/api/livechat/queryConversation', body, userToken);
      expect(res.status, body).toBe(400);
      expect(res.body).toMatchObject({ code: 0, error: 'bad_input' });
    }
  });

  it('a call that needs a payload, sent without one, names the missing field', async () => {
    for (const body of [undefined, '']) {
      const res = await post('/api/livechat/queryConversationDetail', body, userToken);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 0, error: 'bad_input', field: 'conversationId' });
    }
  });

  it('a body larger than the API limit is still refused with 413', async () => {
    const big = JSON.stringify({ search: 'x'.repeat(3 * 1024 * 1024) });
    const res = await post('/api/Admin/getUser', big, adminToken);
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 0, error: 'body_too_large' });
  });
});

describe('routes with formats of their own answer an empty JSON body as before', () => {
  const emptyJson = (path: string) =>
    fetch(s.url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '' }).then(
      async (r) => ({ status: r.status, text: await r.text() }),
    );

  it('a device push is refused as malformed JSON', async () => {
    const res = await emptyJson(`/api/gw/${gateway.id}/secret/status`);
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ code: 0, error: 'bad_input' });
  });

  it('the SMS-Activate handler answers its own token', async () => {
    const res = await emptyJson(`/stubs/handler_api.php?api_key=${apiKey}&action=getBalance`);
    // An empty JSON body carries no parameters: the query's action runs.
    expect(res).toEqual({ status: 200, text: expect.stringMatching(/^ACCESS_BALANCE:/) });
  });

  it('the payment webhook still reads the raw body and refuses it unsigned', async () => {
    const res = await emptyJson('/api/Payments/ipn');
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.status).toBeLessThan(500);
    expect(res.status).not.toBe(415);
  });

  it('the MMS upload still wants multipart', async () => {
    const res = await fetch(`${s.url}/api/LiveChat/mmsUpload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${userToken}`, 'content-type': 'application/json' },
      body: '',
    });
    expect(res.status).toBe(400);
  });
});
