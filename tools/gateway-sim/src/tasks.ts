// SMS tasks: validation (task-status codes), per-port send queues, transmit outcomes and the
// status-report cache (rows are deltas since the last report, counters are running totals).
import { Timers } from '@simdock/sim-kit';
import { Batcher } from './batcher.ts';
import { type DeviceModel, parsePortSpec, type Slot } from './model.ts';
import {
  canSend,
  type FdrRow,
  nowSeconds,
  type ReportEntry,
  type SdrRow,
  type SendTaskIn,
  type StatusReport,
  type TaskCode,
  taskStatus,
} from './protocol.ts';

export type Outcome = 'ok' | 'fail' | 'unregistered';
export type OutcomeFn = (task: { tid: number; to: string; port: string }) => Outcome;

/** What happened to one recipient of a task. */
export interface SentResult {
  idx: number;
  to: string;
  /** 'N.SS' the recipient went out (or is queued to go out) on. */
  port: string;
  outcome: Outcome | 'pending' | 'removed';
  /** Epoch seconds of the result. */
  ts?: number;
}

/** Every task the device was handed, accepted or not. */
export interface SentRecord {
  /** null when the task carried no usable tid. */
  tid: number | null;
  /** `to` as received. */
  to: string;
  recipients: string[];
  /** The text after `chs` decoding. */
  sms: string;
  /** An MMS task (`smstype` 1): its subject and decoded attachments. */
  mms?: { title: string; attachments: { type: string; data: Buffer }[] };
  from?: string;
  via: 'post_sms' | 'send_sms';
  /** The task-status answered, e.g. '0 OK' or '5 SIM Unregistered'. */
  status: string;
  /** First port used, 'N.SS'. */
  port?: string;
  outcome: 'refused' | 'pending' | 'ok' | 'fail' | 'partial' | 'removed';
  results: SentResult[];
  sdr: boolean;
  fdr: boolean;
  dr: boolean;
  /** Epoch ms. */
  receivedAt: number;
}

interface Task {
  tid: number;
  sms: string;
  record: SentRecord;
  srUrl: string | undefined;
  srCnt: number;
  srPrd: number;
  total: number;
  sending: number;
  sent: number;
  failed: number;
  unsent: number;
  /** Jobs neither finished nor removed. */
  open: number;
  paused: boolean;
  removed: boolean;
  jobs: Job[];
}

interface Job {
  task: Task;
  portNo: number;
  result: SentResult;
}

interface ReportItem {
  task: Task;
  sdr?: SdrRow;
  fdr?: FdrRow;
}

export interface TaskHost {
  readonly model: DeviceModel;
  readonly sendDelayMs: number;
  readonly maxQueuedTasks: number;
  readonly reportMaxDelayMs: number;
  outcome: OutcomeFn;
  /** Resolves when the push has been attempted; reports to one URL never overlap. */
  report(url: string, body: StatusReport): Promise<void>;
  /** A recipient got the SMS: loop-back delivery and, with dr=1, a carrier DLR. */
  delivered(slot: Slot, to: string, text: string, ts: number, dr: boolean): void;
}

/** Request-level settings of a send-sms POST. */
export interface RequestSettings {
  srUrl: string | undefined;
  srCnt: number;
  srPrd: number;
}

/** A carrier reason for failures; the real text varies by operator. */
const CARRIER_REASON = '21 Short message transfer rejected';

export class TaskEngine {
  private tasks = new Map<number, Task>();
  private records: SentRecord[] = [];
  private queues = new Map<number, Job[]>();
  private busy = new Set<number>();
  private readonly timers = new Timers();
  private caches = new Map<string, Batcher<ReportItem>>();
  private unfinished = 0;
  private roundRobin = 0;
  private autoTid = 0x40000000;

  constructor(private readonly host: TaskHost) {}

  /** Validate one task, queue it when valid, and return its task-status row. */
  accept(
    raw: SendTaskIn,
    settings: RequestSettings,
    seen: Set<number>,
    via: SentRecord['via'],
  ): { tid: unknown; status: string } {
    const record: SentRecord = {
      tid: null,
      to: typeof raw.to === 'string' ? raw.to : Array.isArray(raw.to) ? raw.to.join(',') : '',
      recipients: splitNumbers(raw.to),
      sms: decodeText(raw.sms, raw.chs),
      from: raw.from === undefined || raw.from === null || raw.from === '' ? undefined : String(raw.from),
      via,
      status: '',
      outcome: 'refused',
      results: [],
      sdr: flag(raw.sdr, false),
      fdr: flag(raw.fdr, true),
      dr: flag(raw.dr, false),
      receivedAt: Date.now(),
    };
    this.records.push(record);
    const refuse = (code: TaskCode) => {
      record.status = taskStatus(code);
      return { tid: raw.tid ?? 0, status: record.status };
    };

    const tid = parseTid(raw.tid);
    if (tid === undefined) return refuse(11);
    record.tid = tid;
    if (seen.has(tid) || this.tasks.has(tid)) return refuse(13);
    if (record.recipients.length === 0) return refuse(9);
    const isMms = Number(raw.smstype) === 1;
    if (isMms) {
      // An MMS needs a subject and 1–5 attachments; its text may be empty (docs/devices-ejoin.md#mms).
      if (typeof raw.smstitle !== 'string' || raw.smstitle === '') return refuse(17);
      const attachments = parseAttachments(raw.attachments);
      if (attachments === undefined || attachments.length === 0) return refuse(19);
      if (attachments.length > 5) return refuse(18);
      record.mms = { title: raw.smstitle, attachments };
    } else if (typeof raw.sms !== 'string' || raw.sms === '') return refuse(8);

    const ports = this.choosePorts(record.from, record.recipients.length);
    if (ports === 'invalid') return refuse(2);
    if (ports.length === 0) return refuse(5);
    if (this.unfinished >= this.host.maxQueuedTasks) return refuse(16);

    seen.add(tid);
    record.status = taskStatus(0);
    const task: Task = {
      tid,
      sms: record.sms,
      record,
      srUrl: settings.srUrl,
      srCnt: positive(raw.sr_cnt) ?? settings.srCnt,
      srPrd: positive(raw.sr_prd) ?? settings.srPrd,
      total: 0,
      sending: 0,
      sent: 0,
      failed: 0,
      unsent: 0,
      open: 0,
      paused: false,
      removed: false,
      jobs: [],
    };
    const pairs: { portNo: number; idx: number }[] = [];
    if (record.from === undefined) {
      // The device picks a port per recipient.
      for (let idx = 0; idx < record.recipients.length; idx++)
        pairs.push({ portNo: ports[idx % ports.length]!, idx });
    } else {
      // Named ports: every port sends to every recipient.
      for (const portNo of ports)
        for (let idx = 0; idx < record.recipients.length; idx++) pairs.push({ portNo, idx });
    }
    for (const { portNo, idx } of pairs) {
      const to = record.recipients[idx]!;
      const result: SentResult = {
        idx,
        to,
        port: this.host.model.activeSlot(portNo)!.port,
        outcome: 'pending',
      };
      const job: Job = { task, portNo, result };
      record.results.push(result);
      task.jobs.push(job);
      this.enqueue(job);
    }
    task.total = task.unsent = task.open = task.jobs.length;
    record.port = record.results[0]?.port;
    record.outcome = 'pending';
    this.tasks.set(tid, task);
    this.unfinished++;
    for (const portNo of new Set(pairs.map((p) => p.portNo))) this.pump(portNo);
    return { tid, status: record.status };
  }

  /** Device-assigned tid for the legacy GET form, far from typical platform ranges. */
  nextAutoTid(): number {
    while (this.tasks.has(this.autoTid)) this.autoTid++;
    return this.autoTid++;
  }

  /** Usable port numbers for a task; 'invalid' when `from` names ports the device lacks. */
  private choosePorts(from: string | undefined, recipients: number): number[] | 'invalid' {
    const model = this.host.model;
    if (from === undefined) {
      const usable = model.ports.filter((p) => canSend(model.activeSlot(p.n)!.st)).map((p) => p.n);
      if (usable.length === 0) return [];
      // Rotate the starting port so consecutive tasks spread over the device.
      const start = this.roundRobin++ % usable.length;
      const rotated = [...usable.slice(start), ...usable.slice(0, start)];
      return rotated.slice(0, Math.max(1, recipients));
    }
    const refs = parsePortSpec(from, model.opts.ports, model.opts.slots);
    if (!refs) return 'invalid';
    const out = new Set<number>();
    for (const ref of refs) {
      const active = model.activeSlot(ref.port)!;
      if (ref.slot !== undefined && ref.slot !== active.slotNo) continue; // only the active slot sends
      if (canSend(active.st)) out.add(ref.port);
    }
    return [...out];
  }

  private enqueue(job: Job): void {
    let q = this.queues.get(job.portNo);
    if (!q) {
      q = [];
      this.queues.set(job.portNo, q);
    }
    q.push(job);
  }

  /** Start the next transmission on a port unless it is busy; one SMS at a time per module. */
  private pump(portNo: number): void {
    if (this.busy.has(portNo)) return;
    const q = this.queues.get(portNo);
    if (!q) return;
    const i = q.findIndex((j) => !j.task.paused);
    if (i < 0) return;
    const job = q.splice(i, 1)[0]!;
    if (q.length === 0) this.queues.delete(portNo);
    this.busy.add(portNo);
    job.task.unsent--;
    job.task.sending++;
    this.timers.later(this.host.sendDelayMs, () => {
      this.busy.delete(portNo);
      this.finish(job);
      this.pump(portNo);
    });
  }

  private finish(job: Job): void {
    const { task, result } = job;
    const slot = this.host.model.activeSlot(job.portNo)!;
    const ts = nowSeconds();
    const outcome: Outcome = canSend(slot.st)
      ? this.host.outcome({ tid: task.tid, to: result.to, port: slot.port })
      : 'unregistered';
    Object.assign(result, { outcome, ts, port: slot.port });
    task.sending--;
    task.open--;
    const item: ReportItem = { task };
    if (outcome === 'ok') {
      task.sent++;
      slot.stats.sentOk++;
      if (task.record.sdr) item.sdr = [result.idx, result.to, slot.port, ts];
    } else {
      task.failed++;
      slot.stats.sentFailed++;
      const reason = outcome === 'fail' ? [taskStatus(6), CARRIER_REASON] : [taskStatus(5), ''];
      if (task.record.fdr) item.fdr = [result.idx, result.to, slot.port, ts, reason[0]!, reason[1]!];
    }
    const done = task.open === 0;
    if (done) this.close(task);
    this.cacheReport(item, done);
    if (outcome === 'ok') this.host.delivered(slot, result.to, task.sms, ts, task.record.dr);
  }

  private close(task: Task): void {
    this.unfinished--;
    const outcomes = task.record.results.map((r) => r.outcome);
    task.record.outcome = task.removed
      ? 'removed'
      : outcomes.every((o) => o === 'ok')
        ? 'ok'
        : outcomes.every((o) => o !== 'ok')
          ? 'fail'
          : 'partial';
  }

  private cacheReport(item: ReportItem, taskDone: boolean): void {
    const url = item.task.srUrl;
    if (!url) return;
    let cache = this.caches.get(url);
    if (!cache) {
      cache = new Batcher<ReportItem>(
        (items) => this.host.report(url, buildReport(items)),
        this.host.reportMaxDelayMs,
      );
      this.caches.set(url, cache);
    }
    // A finished task is flushed at once so callers need not wait sr_prd for the last rows.
    cache.add(item, item.task.srCnt, item.task.srPrd * 1000, taskDone);
  }

  /** goip_pause_sms / resume / remove: `tids` undefined means every task. */
  control(op: 'pause' | 'resume' | 'remove', tids: number[] | undefined): { tid: number; status: string }[] {
    const list = tids ?? [...this.tasks.keys()];
    const out: { tid: number; status: string }[] = [];
    const touched = new Set<number>();
    for (const tid of list) {
      const task = this.tasks.get(tid);
      if (!task) {
        out.push({ tid, status: taskStatus(11) });
        continue;
      }
      if (task.open > 0) {
        if (op === 'pause') task.paused = true;
        if (op === 'resume') task.paused = false;
        if (op === 'remove') this.removeQueued(task);
        for (const j of task.jobs) touched.add(j.portNo);
      }
      out.push({ tid, status: taskStatus(0) });
    }
    if (op === 'resume') for (const p of touched) this.pump(p);
    return out;
  }

  private removeQueued(task: Task): void {
    task.removed = true;
    for (const [portNo, q] of this.queues) {
      const keep: Job[] = [];
      for (const j of q) {
        if (j.task !== task) keep.push(j);
        else {
          j.result.outcome = 'removed';
          task.open--;
        }
      }
      if (keep.length === 0) this.queues.delete(portNo);
      else this.queues.set(portNo, keep);
    }
    // A job in flight finishes normally and closes the task then.
    if (task.open === 0) this.close(task);
  }

  /** goip_get_tasks rows: unfinished tasks, optionally only those using a port. */
  list(portNo: number | undefined, withContent: boolean) {
    return [...this.tasks.values()]
      .filter((t) => t.open > 0 && (portNo === undefined || t.jobs.some((j) => j.portNo === portNo)))
      .map((t) => ({
        tid: t.tid,
        state: t.paused ? 1 : 0,
        from: t.record.from ?? [...new Set(t.jobs.map((j) => j.portNo))].join(','),
        to: t.record.recipients.join(','),
        chs: 'utf8',
        coding: 0,
        ...(withContent ? { sms: t.sms } : {}),
      }));
  }

  snapshot(): SentRecord[] {
    return this.records.map((r) => ({
      ...r,
      recipients: [...r.recipients],
      results: r.results.map((x) => ({ ...x })),
    }));
  }

  /** Reboot: queues, caches and tid memory are lost; unsent recipients become 'removed'. */
  clear(): void {
    this.timers.clear();
    for (const c of this.caches.values()) c.clear();
    this.caches.clear();
    for (const task of this.tasks.values()) {
      if (task.open === 0) continue;
      task.removed = true;
      for (const j of task.jobs) if (j.result.outcome === 'pending') j.result.outcome = 'removed';
      task.open = 0;
      this.close(task);
    }
    this.tasks.clear();
    this.queues.clear();
    this.busy.clear();
    this.unfinished = 0;
  }
}

/** Group cached rows per task; counters are read now, so they are the running totals. */
function buildReport(items: ReportItem[]): StatusReport {
  const byTid = new Map<number, ReportEntry>();
  for (const { task, sdr, fdr } of items) {
    let e = byTid.get(task.tid);
    if (!e) {
      e = { tid: task.tid, sending: 0, sent: 0, failed: 0, unsent: 0, sdr: [], fdr: [] };
      byTid.set(task.tid, e);
    }
    Object.assign(e, { sending: task.sending, sent: task.sent, failed: task.failed, unsent: task.unsent });
    if (sdr) e.sdr.push(sdr);
    if (fdr) e.fdr.push(fdr);
  }
  const rpts = [...byTid.values()];
  return { type: 'status-report', rpt_num: rpts.length, rpts };
}

function parseTid(v: unknown): number | undefined {
  const n =
    typeof v === 'number' ? v : typeof v === 'string' && /^-?\d+$/.test(v.trim()) ? Number(v) : Number.NaN;
  return Number.isInteger(n) && n >= -2147483648 && n <= 2147483647 ? n : undefined;
}

function splitNumbers(v: unknown): string[] {
  const list = Array.isArray(v)
    ? v.map(String)
    : typeof v === 'string' || typeof v === 'number'
      ? [String(v)]
      : [];
  return list
    .flatMap((s) => s.split(','))
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

function decodeText(sms: unknown, chs: unknown): string {
  if (typeof sms !== 'string') return '';
  return chs === 'base64' ? Buffer.from(sms, 'base64').toString('utf8') : sms;
}

function flag(v: unknown, dflt: boolean): boolean {
  if (v === undefined || v === null || v === '') return dflt;
  return v === true || Number(v) === 1;
}

export function positive(v: unknown): number | undefined {
  const n = Number(v);
  return v !== undefined && v !== null && v !== '' && Number.isFinite(n) && n > 0 ? n : undefined;
}

/** MMS attachments "jpg|<base64>;png|<base64>": undefined when not a string of that form. */
function parseAttachments(raw: unknown): { type: string; data: Buffer }[] | undefined {
  if (typeof raw !== 'string') return undefined;
  const out: { type: string; data: Buffer }[] = [];
  for (const item of raw.split(';')) {
    if (item === '') continue;
    const bar = item.indexOf('|');
    if (bar <= 0) return undefined;
    const b64 = item.slice(bar + 1);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) return undefined;
    out.push({ type: item.slice(0, bar), data: Buffer.from(b64, 'base64') });
  }
  return out;
}
