// The goip_*.html routes. Every call carries username/password in the query string.

import type { SimReply } from '@simdock/sim-kit';
import { runCommand } from './commands.ts';
import type { DeviceCore } from './core.ts';
import { parsePortSpec } from './model.ts';
import {
  canSend,
  OK_0,
  OK_200,
  type SendSmsRequest,
  type SendTaskIn,
  TASK_STATUS,
  taskStatus,
  UNAUTHORIZED,
} from './protocol.ts';
import type { Handler, SimRequest } from './server.ts';
import { positive } from './tasks.ts';

type Route = (core: DeviceCore, req: SimRequest) => SimReply;

const OWN_NUMBER_USSD = new Set(['*#100#', '*2#', '*#62#', '*111#']);

export function goipHandler(core: DeviceCore): Handler {
  return (req) => {
    const route = ROUTES[req.path];
    if (!route) return { status: 404, text: 'Not Found' };
    if (!core.checkAuth(req.query)) return unauthorized(req);
    return route(core, req);
  };
}

/** post_sms answers per task, like its normal reply; everything else gets a bare code 14. */
function unauthorized(req: SimRequest): SimReply {
  if (req.path !== '/goip_post_sms.html') return { json: UNAUTHORIZED };
  const tasks = parseJson<SendSmsRequest>(req.body)?.tasks;
  const status = (Array.isArray(tasks) ? (tasks as SendTaskIn[]) : []).map((t) => ({
    tid: t?.tid ?? 0,
    status: taskStatus(14),
  }));
  return { json: { ...UNAUTHORIZED, type: 'task-status', status } };
}

const ROUTES: Record<string, Route> = {
  '/goip_get_status.html': getStatus,
  '/goip_post_sms.html': postSms,
  '/goip_send_sms.html': sendSmsLegacy,
  '/goip_pause_sms.html': (c, r) => taskControl(c, r, 'pause'),
  '/goip_resume_sms.html': (c, r) => taskControl(c, r, 'resume'),
  '/goip_remove_sms.html': (c, r) => taskControl(c, r, 'remove'),
  '/goip_get_tasks.html': getTasks,
  '/goip_get_sms.html': getSms,
  '/goip_send_cmd.html': runCommand,
  '/goip_send_ussd.html': sendUssd,
  '/goip_send_at.html': sendAt,
  '/goip_get_sms_stat.html': getSmsStat,
};

function getStatus(core: DeviceCore, req: SimRequest): SimReply {
  const q = req.query;
  const allSims = q.get('all_sims') === '1' || q.get('all_slots') === '1';
  const url = q.get('url');
  if (url === null) return { json: core.devStatus(-1, allSims) };
  const p = q.get('period');
  const period = p === null || p === '' || !Number.isFinite(Number(p)) ? 60 : Number(p);
  core.subscribe(url, url === '' ? 0 : period, allSims);
  return { json: OK_200 };
}

function postSms(core: DeviceCore, req: SimRequest): SimReply {
  const body = parseJson<SendSmsRequest>(req.body);
  if (!body || !Array.isArray(body.tasks) || (body.type !== undefined && body.type !== 'send-sms')) {
    return { json: { code: 400, reason: 'Bad Request' } };
  }
  if (typeof body.sr_url === 'string' && body.sr_url !== '') core.srUrl = body.sr_url;
  if (typeof body.sms_url === 'string' && body.sms_url !== '') core.smsUrl = body.sms_url;
  core.smsCnt = positive(body.sms_cnt) ?? core.smsCnt;
  core.smsPrd = positive(body.sms_prd) ?? core.smsPrd;
  const settings = {
    srUrl: typeof body.sr_url === 'string' && body.sr_url !== '' ? body.sr_url : core.srUrl,
    srCnt: positive(body.sr_cnt) ?? 100,
    srPrd: positive(body.sr_prd) ?? 30,
  };
  const seen = new Set<number>();
  const status = (body.tasks as unknown[]).map((t) =>
    core.tasks.accept(t && typeof t === 'object' ? (t as SendTaskIn) : {}, settings, seen, 'post_sms'),
  );
  return { json: { ...OK_200, type: 'task-status', status } };
}

/** Older GET form: one task, device-assigned tid unless `tid` is given. */
function sendSmsLegacy(core: DeviceCore, req: SimRequest): SimReply {
  const q = req.query;
  const tid = q.get('tid') ?? core.tasks.nextAutoTid();
  const task: SendTaskIn = {
    tid,
    to: q.get('recipients') ?? q.get('to') ?? undefined,
    sms: q.get('sms') ?? undefined,
    from: q.get('port') ?? undefined,
    sdr: q.get('sdr') ?? undefined,
    fdr: q.get('fdr') ?? undefined,
    dr: q.get('dr') ?? undefined,
  };
  const r = core.tasks.accept(task, { srUrl: core.srUrl, srCnt: 100, srPrd: 30 }, new Set(), 'send_sms');
  const code = Number.parseInt(r.status, 10);
  return {
    json:
      code === 0
        ? { ...OK_200, tid: r.tid, status: r.status }
        : { code, reason: r.status.replace(/^\d+ /, ''), tid: r.tid, status: r.status },
  };
}

function taskControl(core: DeviceCore, req: SimRequest, op: 'pause' | 'resume' | 'remove'): SimReply {
  const body = parseJson<{ tids?: unknown }>(req.body);
  let tids: number[] | undefined;
  if (Array.isArray(body?.tids)) tids = body.tids.map(Number).filter(Number.isInteger);
  else if (req.query.get('tids'))
    tids = req.query.get('tids')!.split(',').map(Number).filter(Number.isInteger);
  return { json: { ...OK_200, results: core.tasks.control(op, tids) } };
}

function getTasks(core: DeviceCore, req: SimRequest): SimReply {
  const q = req.query;
  const port = q.get('port') ? Number.parseInt(q.get('port')!, 10) : undefined;
  const pos = Math.max(0, Number(q.get('pos') ?? 0) || 0);
  const num = Math.max(1, Number(q.get('num') ?? 10) || 10);
  const all = core.tasks.list(Number.isInteger(port) ? port : undefined, q.get('has_content') === '1');
  const tasks = all.slice(pos, pos + num);
  return { json: { ...OK_200, total_num: all.length, task_num: tasks.length, tasks } };
}

function getSms(core: DeviceCore, req: SimRequest): SimReply {
  const q = req.query;
  const id = Number.parseInt(q.get('sms_id') ?? '1', 10);
  const num = Number.parseInt(q.get('sms_num') ?? '0', 10);
  const r = core.inbox.pull(
    Number.isFinite(id) ? id : 1,
    Number.isFinite(num) ? num : 0,
    q.get('sms_del') === '1',
  );
  return { json: { ...OK_0, ssrc: core.inbox.ssrc, ...r } };
}

function sendUssd(core: DeviceCore, req: SimRequest): SimReply {
  const slot = core.model.find(req.query.get('port') ?? '');
  if (!slot) return { json: { code: 2, reason: TASK_STATUS[2] } };
  const code = req.query.get('ussd') ?? '';
  if (code === '') return { json: { code: 3, reason: TASK_STATUS[3] } };
  if (!slot.active || !canSend(slot.st)) return { json: { code: 5, reason: TASK_STATUS[5] } };
  const resp =
    slot.ussd[code] ??
    (OWN_NUMBER_USSD.has(code) ? `Your number is +${slot.msisdn}.` : 'UNKNOWN APPLICATION');
  return { json: { ...OK_200, port: slot.port, resp } };
}

function sendAt(core: DeviceCore, req: SimRequest): SimReply {
  const slot = core.model.find(req.query.get('port') ?? '');
  if (!slot) return { json: { code: 2, reason: TASK_STATUS[2] } };
  const at = (req.query.get('at') ?? req.query.get('cmd') ?? '').trim().toUpperCase();
  let resp: string;
  if (at === 'AT' || at === '') resp = 'OK';
  else if (at === 'AT+CGSN') resp = `${slot.imei}\r\nOK`;
  else if (!slot.inserted) resp = '+CME ERROR: SIM not inserted';
  else if (at === 'AT+CNUM') resp = slot.cnum && slot.msisdn ? `+CNUM: "","+${slot.msisdn}",145\r\nOK` : 'OK';
  else if (at === 'AT+CSQ') resp = `+CSQ: ${slot.sig},99\r\nOK`;
  else if (at === 'AT+CCID') resp = `+CCID: ${slot.iccid}\r\nOK`;
  else if (at === 'AT+CIMI') resp = `${slot.imsi}\r\nOK`;
  else resp = 'ERROR';
  return { json: { ...OK_0, port: slot.port, resp } };
}

/** Counters since boot regardless of `type` (the real device windows them by hour/day). */
function getSmsStat(core: DeviceCore, req: SimRequest): SimReply {
  const spec = req.query.get('ports') ?? 'all';
  const refs = parsePortSpec(spec, core.opts.ports, core.opts.slots);
  if (!refs) return { json: { code: 2, reason: TASK_STATUS[2] } };
  const stats = core.targets(refs).map((s) => ({
    port: s.portNo,
    slot: s.slotNo,
    received: s.stats.received,
    sent: s.stats.sentOk + s.stats.sentFailed,
    sent_ok: s.stats.sentOk,
    sent_failed: s.stats.sentFailed,
    con_failed: 0,
    unsent: 0,
    sending: 0,
  }));
  return { json: { ...OK_200, count: stats.length, stats } };
}

function parseJson<T>(text: string): T | undefined {
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' ? (v as T) : undefined;
  } catch {
    return undefined;
  }
}
