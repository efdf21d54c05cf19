// goip_send_cmd.html: lock/unlock/switch/reset/redial/reboot/save, `multiple`, and the op=set /
// op=get config writes and reads (text/plain `name(n)=value&...`).

import type { SimReply } from '@simdock/sim-kit';
import type { DeviceCore } from './core.ts';
import { parsePortSpec } from './model.ts';
import { OK_0, OK_200, TASK_STATUS, type TaskCode } from './protocol.ts';
import type { SimRequest } from './server.ts';

const PORT_OPS = new Set(['lock', 'unlock', 'switch', 'reset', 'redial']);
const RESERVED = new Set(['username', 'password', 'op', 'version', 'ports']);

function fail(code: TaskCode): { code: number; reason: string } {
  return { code, reason: TASK_STATUS[code] };
}

export function runCommand(core: DeviceCore, req: SimRequest): SimReply {
  const q = req.query;
  let json: Record<string, unknown> = {};
  const queryOp = q.get('op');
  if (req.method === 'POST' && queryOp !== 'set' && queryOp !== 'get' && req.body.trim() !== '') {
    try {
      const parsed: unknown = JSON.parse(req.body);
      if (parsed && typeof parsed === 'object') json = parsed as Record<string, unknown>;
    } catch {
      return { json: { code: 400, reason: 'Bad Request' } };
    }
  }
  const op = queryOp ?? (typeof json.op === 'string' ? json.op : '');
  if (op === 'set') return { json: setParams(core, configPairs(req)) };
  if (op === 'get') return { json: getParams(core, configPairs(req)) };
  if (op === 'multiple') {
    const ops = Array.isArray(json.ops) ? json.ops : [];
    let reboot = false;
    for (const o of ops) {
      const sub = o as { op?: unknown; ports?: unknown };
      const r = applyOp(core, String(sub.op ?? ''), sub.ports === undefined ? undefined : String(sub.ports));
      if (r === 'reboot') reboot = true;
      else if (r !== 0) return { json: fail(r) };
    }
    return { json: OK_200, after: reboot ? () => void core.reboot() : undefined };
  }
  const ports = q.get('ports') ?? (json.ports === undefined ? undefined : String(json.ports));
  const r = applyOp(core, op, ports);
  if (r === 'reboot') return { json: OK_200, after: () => void core.reboot() };
  return { json: r === 0 ? OK_200 : fail(r) };
}

function applyOp(core: DeviceCore, op: string, ports: string | undefined): TaskCode | 'reboot' {
  if (op === 'reboot') return 'reboot';
  if (op === 'save') return 0;
  if (!PORT_OPS.has(op)) return 15;
  const refs = parsePortSpec(ports ?? '', core.opts.ports, core.opts.slots);
  if (!refs) return 2;
  switch (op) {
    case 'lock':
      core.lock(core.targets(refs));
      break;
    case 'unlock':
      core.unlock(core.targets(refs));
      break;
    case 'switch':
      for (const ref of refs) core.switchTo(ref.port, ref.slot);
      break;
    default: // reset, redial: only the port number counts
      for (const p of new Set(refs.map((r) => r.port))) core.resetPort(p);
  }
  return 0;
}

/** name=value pairs from the text/plain body and, for GET, from the query string. */
function configPairs(req: SimRequest): [string, string][] {
  const out: [string, string][] = [];
  for (const [k, v] of req.query) if (!RESERVED.has(k)) out.push([k, v]);
  for (const part of req.body.split(/[&\r\n]+/)) {
    const eq = part.indexOf('=');
    if (eq <= 0) continue;
    out.push([decode(part.slice(0, eq).trim()), decode(part.slice(eq + 1).trim())]);
  }
  return out;
}

function decode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

function setParams(core: DeviceCore, pairs: [string, string][]) {
  let n = 0;
  for (const [name, value] of pairs) {
    const m = name.match(/^(sim_number|sim_imei)\((\d+)\)$/i);
    if (m) {
      const slot = core.model.slotByIndex(Number(m[2]));
      if (!slot) continue;
      if (m[1]!.toLowerCase() === 'sim_number') core.setSimNumber(slot, value);
      else {
        slot.imei = value;
        core.model.changed(slot);
      }
      n++;
    } else if (/^sms_url$/i.test(name)) {
      core.smsUrl = value || undefined;
      n++;
    } else if (/^sr_url$/i.test(name)) {
      core.srUrl = value || undefined;
      n++;
    }
  }
  return { ...OK_0, par_set: n };
}

function getParams(core: DeviceCore, pairs: [string, string][]) {
  const pars: Record<string, string> = {};
  for (const [key, name] of pairs) {
    if (!/^par_name\(\d+\)$/i.test(key)) continue;
    const m = name.match(/^(sim_number|sim_imei)\((\d+)\)$/i);
    if (m) {
      const slot = core.model.slotByIndex(Number(m[2]));
      if (slot) pars[name] = m[1]!.toLowerCase() === 'sim_number' ? slot.sn : slot.imei;
    } else if (/^sms_url$/i.test(name)) pars[name] = core.smsUrl ?? '';
    else if (/^sr_url$/i.test(name)) pars[name] = core.srUrl ?? '';
  }
  return { ...OK_0, par_get: Object.keys(pars).length, pars };
}
