import { createServer } from 'node:http';
import { describe, expect, it } from 'vitest';
import {
  BodyTooLarge,
  closeServer,
  hostUrl,
  listen,
  parseJsonObject,
  readBody,
  readBodyOrRefuse,
  writeReply,
} from './http.ts';

describe('a server on the kit', () => {
  it('reads bodies up to the limit, answers JSON, text or nothing, and closes', async () => {
    const seen: string[] = [];
    const server = createServer(async (req, res) => {
      try {
        const body = await readBody(req, 16);
        seen.push(body);
        if (req.url === '/json')
          writeReply(res, { status: 201, json: { got: body }, headers: { 'x-a': '1' } });
        else if (req.url === '/text') writeReply(res, { text: 'hi' });
        else if (req.url === '/xml')
          writeReply(res, { text: '<a/>', headers: { 'Content-Type': 'text/xml' } });
        else writeReply(res, { status: 204 });
      } catch (err) {
        expect(err).toBeInstanceOf(BodyTooLarge);
        writeReply(res, { status: 413, text: 'too large' });
      }
    });
    const port = await listen(server, 0, '127.0.0.1');
    const url = hostUrl('127.0.0.1', port);
    try {
      const json = await fetch(`${url}/json`, { method: 'POST', body: 'héllo' });
      expect(json.status).toBe(201);
      expect(json.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(json.headers.get('x-a')).toBe('1');
      expect(await json.json()).toEqual({ got: 'héllo' });
      const text = await fetch(`${url}/text`);
      expect(text.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(await text.text()).toBe('hi');
      const xml = await fetch(`${url}/xml`);
      expect(xml.headers.get('content-type')).toBe('text/xml');
      expect(await xml.text()).toBe('<a/>');
      const empty = await fetch(`${url}/none`);
      expect(empty.status).toBe(204);
      expect(empty.headers.get('content-type')).toBeNull();
      const big = await fetch(`${url}/json`, { method: 'POST', body: 'x'.repeat(17) }).then(
        (r) => r.status,
        () => 'cut',
      );
      // The request is destroyed past the limit: the client sees 413 or a cut connection.
      expect([413, 'cut']).toContain(big);
      expect(seen).toEqual(['héllo', '', '', '']);
    } finally {
      await closeServer(server);
    }
    expect(server.listening).toBe(false);
    await closeServer(server); // closing twice is harmless
  });

  it('readBodyOrRefuse gives the body, or answers the refusal itself past the limit', async () => {
    const seen: (string | undefined)[] = [];
    const server = createServer(async (req, res) => {
      const body = await readBodyOrRefuse(req, res, 8, {
        status: 413,
        json: { message: 'Payload Too Large' },
      });
      seen.push(body);
      if (body !== undefined) writeReply(res, { text: body.toUpperCase() });
    });
    const port = await listen(server, 0, '127.0.0.1');
    const url = hostUrl('127.0.0.1', port);
    try {
      expect(await (await fetch(url, { method: 'POST', body: 'small' })).text()).toBe('SMALL');
      const big = await fetch(url, { method: 'POST', body: 'x'.repeat(9) }).then(
        (r) => r.status,
        () => 'cut',
      );
      expect([413, 'cut']).toContain(big);
      expect(seen).toEqual(['small', undefined]);
    } finally {
      await closeServer(server);
    }
  });

  it('refuses a port already taken', async () => {
    const a = createServer();
    const port = await listen(a, 0, '127.0.0.1');
    try {
      await expect(listen(createServer(), port, '127.0.0.1')).rejects.toThrow(/EADDRINUSE/);
    } finally {
      await closeServer(a);
    }
  });
});

describe('hostUrl', () => {
  it('shows a wildcard address as 127.0.0.1 and brackets IPv6', () => {
    expect(hostUrl('0.0.0.0', 80)).toBe('http://127.0.0.1:80');
    expect(hostUrl('::', 81)).toBe('http://127.0.0.1:81');
    expect(hostUrl('::1', 82)).toBe('http://[::1]:82');
    expect(hostUrl('localhost', 83)).toBe('http://localhost:83');
  });
});

describe('parseJsonObject', () => {
  it('returns an object and null for anything else', () => {
    expect(parseJsonObject('{"a":1}')).toEqual({ a: 1 });
    expect(parseJsonObject('[1]')).toBeNull();
    expect(parseJsonObject('1')).toBeNull();
    expect(parseJsonObject('null')).toBeNull();
    expect(parseJsonObject('{')).toBeNull();
  });
});
