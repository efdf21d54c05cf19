// The SMSGate third-party REST API of one mode (docs/devices-smsgate.md): the mode's prefix, Basic
// auth, and the routes (health, messages, devices, settings, webhooks) onto the phone's parts.
import { parseJsonObject, type SimReply } from '@simdock/sim-kit';
import { error, notFound } from './api-error.ts';
import type { DeviceDirectory } from './devices.ts';
import { getMessage, listMessages, type MessagesContext, postMessage } from './messages-api.ts';
import { PREFIX } from './model.ts';
import type { SettingsEffects, SettingsStore } from './settings.ts';
import type { WebhookRegistry } from './webhook-registry.ts';

export interface ApiContext extends MessagesContext {
  username: string;
  password: string;
  /** `<manufacturer>/<product>`. */
  name: string;
  devices: DeviceDirectory;
  settings: SettingsStore;
  hooks: WebhookRegistry;
  health(): SimReply;
  /** Acts on what a PATCH /settings changed (ping interval, signing key). */
  applySettings(effects: SettingsEffects): void;
}

export interface ApiRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  body: string;
  authorization: string | undefined;
}

const UNAUTHORIZED: SimReply = {
  status: 401,
  json: { message: 'Unauthorized' },
  headers: { 'WWW-Authenticate': 'Basic realm="Access to SMS Gateway", charset="UTF-8"' },
};

export function apiHandler(c: ApiContext, r: ApiRequest): SimReply {
  const prefix = PREFIX[c.mode];
  if (!r.path.startsWith(`${prefix}/`) && r.path !== prefix) return notFound();
  const path = r.path.slice(prefix.length) || '/';
  if (r.method === 'GET' && path === '/health') return c.health();
  if (!authorised(c, r.authorization)) return UNAUTHORIZED;
  const local = c.mode === 'local';
  const [head, id, ...rest] = path.split('/').filter(Boolean);
  if (rest.length > 0) return notFound();
  if (local && r.method === 'GET' && path === '/') {
    return ok({ status: 'ok', model: c.name.split('/')[1] ?? c.name });
  }
  if (head === 'messages' || head === 'message') {
    if (id === undefined && r.method === 'POST') {
      return withObject(r.body, (b) => postMessage(c, b, r.query));
    }
    if (id === undefined && r.method === 'GET') return listMessages(c, r.query);
    if (id !== undefined && r.method === 'GET') return getMessage(c, decodeURIComponent(id));
  }
  // Local has only the singular /device; the server has /devices and the old /device alias.
  if ((head === 'device' || (head === 'devices' && !local)) && id === undefined && r.method === 'GET') {
    return ok(c.devices.list());
  }
  if (head === 'settings' && id === undefined) {
    if (r.method === 'GET') return ok(c.settings.shown());
    if (r.method === 'PATCH') {
      return withObject(r.body, (b) => {
        const effects = c.settings.patch(b);
        if (typeof effects === 'string') return error(400, effects);
        c.applySettings(effects);
        return ok(c.settings.shown());
      });
    }
  }
  if (head === 'webhooks' || (head === 'webhook' && local)) {
    if (id === undefined && r.method === 'GET') return ok(c.hooks.list());
    if (id === undefined && r.method === 'POST') {
      return withObject(r.body, (b) => {
        const hook = c.hooks.register(b);
        return typeof hook === 'string' ? error(400, hook) : { status: 201, json: hook };
      });
    }
    if (id !== undefined && r.method === 'DELETE') {
      return c.hooks.delete(decodeURIComponent(id)) ? { status: 204 } : error(404, 'webhook not found');
    }
  }
  return notFound();
}

function authorised(c: ApiContext, header: string | undefined): boolean {
  const m = /^Basic\s+(.+)$/i.exec(header ?? '');
  if (!m?.[1]) return false;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  return decoded === `${c.username}:${c.password}`;
}

function withObject(raw: string, f: (b: Record<string, unknown>) => SimReply): SimReply {
  const b = parseJsonObject(raw);
  return b ? f(b) : error(400, 'body must be a JSON object');
}

function ok(json: unknown): SimReply {
  return { status: 200, json };
}
