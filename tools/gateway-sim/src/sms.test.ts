import { afterAll, describe, expect, it, vi } from 'vitest';
import { GatewaySim } from './device.ts';
import { SimNetwork } from './network.ts';
import type { ReportEntry } from './protocol.ts';
import { goip, Receiver, sleep } from './testkit.ts';

const send = (sim: GatewaySim, body: unknown) => goip(sim.url, 'goip_post_sms.html', {}, { body });

// One receiver for the file's pushes; each test posts to paths of its own.
const rx = await Receiver.start();
afterAll(() => rx.close());

describe('sending, reports and receiving', () => {
  it('takes MMS tasks (smstype 1) with a subject and attachments, and records the files', async () => {
    const sim = await GatewaySim.start({ ports: 2, sendDelayMs: 5 });
    try {
      const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]);
      const six = Array.from({ length: 6 }, () => `gif|${png.toString('base64')}`).join(';');
      const r = await send(sim, {
        type: 'send-sms',
        tasks: [
          {
            tid: 1,
            to: '15550000001',
            sms: '',
            from: '1',
            smstype: 1,
            smstitle: 'Hi',
            attachments: `png|${png.toString('base64')}`,
          },
          {
            tid: 2,
            to: '15550000002',
            sms: 'x',
            from: '1',
            smstype: 1,
            attachments: `png|${png.toString('base64')}`,
          },
          { tid: 3, to: '15550000003', sms: 'x', from: '1', smstype: 1, smstitle: 'Hi' },
          { tid: 4, to: '15550000004', sms: 'x', from: '1', smstype: 1, smstitle: 'Hi', attachments: six },
          {
            tid: 5,
            to: '15550000005',
            sms: 'x',
            from: '1',
            smstype: 1,
            smstitle: 'Hi',
            attachments: 'png|not base64!',
          },
        ],
      });
      expect(r.status.map((s: { status: string }) => s.status)).toEqual([
        '0 OK',
        '17 MMS title expected',
        '19 MMS attachments expected',
        '18 too many MMS attachments',
        '19 MMS attachments expected',
      ]);
      const rec = sim.sentTasks().find((t) => t.tid === 1)!;
      expect(rec.mms?.title).toBe('Hi');
      expect(rec.mms?.attachments.map((a) => a.type)).toEqual(['png']);
      expect(Buffer.compare(rec.mms!.attachments[0]!.data, png)).toBe(0);
    } finally {
      await sim.stop();
    }
  });

  it('validates each task with the documented task-status codes', async () => {
    const sim = await GatewaySim.start({ ports: 3, sendDelayMs: 5, maxQueuedTasks: 3 });
    try {
      sim.removeSim('3.01');
      const r = await send(sim, {
        type: 'send-sms',
        task_num: 9,
        tasks: [
          { tid: 1, to: '15550000001', sms: 'ok', from: '1' },
          { to: '15550000002', sms: 'no tid' },
          { tid: 1, to: '15550000003', sms: 'dup' },
          { tid: 3, sms: 'no to' },
          { tid: 4, to: '15550000004' },
          { tid: 5, to: '15550000005', sms: 'bad port', from: '7' },
          { tid: 6, to: '15550000006', sms: 'no sim', from: '3' },
          { tid: 7, to: '15550000007', sms: 'fills queue' },
          { tid: 8, to: '15550000008', sms: 'fills queue' },
          { tid: 9, to: '15550000009', sms: 'too many' },
        ],
      });
      expect(r).toMatchObject({ code: 200, reason: 'OK', type: 'task-status' });
      expect(r.status.map((s: { status: string }) => s.status)).toEqual([
        '0 OK',
        '11 TID Expected',
        '13 Duplicated TaskId',
        '9 TO expected',
        '8 SMS expected',
        '2 Invalid Port',
        '5 SIM Unregistered',
        '0 OK',
        '0 OK',
        '16 Too Many Task',
      ]);
      expect(sim.sentTasks()).toHaveLength(10);
      // A later request reusing an accepted tid is a duplicate too.
      const again = await send(sim, {
        type: 'send-sms',
        task_num: 1,
        tasks: [{ tid: 7, to: '1', sms: 'x' }],
      });
      expect(again.status[0].status).toBe('13 Duplicated TaskId');
    } finally {
      await sim.stop();
    }
  });

  it('reports deltas with running totals for a multi-recipient task with a failure', async () => {
    const sim = await GatewaySim.start({ ports: 2, sendDelayMs: 30 });
    try {
      sim.setOutcome((t) => (t.to === '15550000002' ? 'fail' : 'ok'));
      const srUrl = rx.url('/sr');
      const r = await send(sim, {
        type: 'send-sms',
        task_num: 1,
        sr_url: srUrl,
        sr_cnt: 1,
        tasks: [
          { tid: 77, to: '15550000001,15550000002,15550000003', sms: 'héllo ✓', from: '2', sdr: 1, fdr: 1 },
        ],
      });
      expect(r.status).toEqual([{ tid: 77, status: '0 OK' }]);
      // The last report is the one with nothing left to send.
      await rx.waitFor((m) => m.path === '/sr' && m.body.rpts[0].sending + m.body.rpts[0].unsent === 0);
      const rpts = rx.of('/sr').map((m) => {
        expect(m.body).toMatchObject({ type: 'status-report', rpt_num: 1 });
        return m.body.rpts[0] as ReportEntry;
      });
      expect(rpts.length).toBeGreaterThanOrEqual(2);
      // Rows are deltas: each recipient appears exactly once over all reports...
      const idx = rpts.flatMap((e) => [...e.sdr, ...e.fdr].map((row) => row[0]));
      expect(idx.sort()).toEqual([0, 1, 2]);
      // ...while the counters are running totals: they equal the rows seen so far.
      let ok = 0;
      let failed = 0;
      for (const e of rpts) {
        ok += e.sdr.length;
        failed += e.fdr.length;
        expect([e.tid, e.sent, e.failed, e.sending + e.unsent + e.sent + e.failed]).toEqual([
          77,
          ok,
          failed,
          3,
        ]);
      }
      expect([ok, failed]).toEqual([2, 1]);
      const sdr = rpts.flatMap((e) => e.sdr);
      const fdr = rpts.flatMap((e) => e.fdr);
      expect(sdr[0]).toEqual([0, '15550000001', '2.01', expect.any(Number)]);
      expect(sdr[1]!.slice(0, 3)).toEqual([2, '15550000003', '2.01']);
      expect(fdr[0]).toEqual([1, '15550000002', '2.01', expect.any(Number), '6 Timeout', expect.any(String)]);
      const rec = sim.sentTasks().find((t) => t.tid === 77)!;
      expect(rec).toMatchObject({
        sms: 'héllo ✓',
        from: '2',
        port: '2.01',
        outcome: 'partial',
        status: '0 OK',
      });
      expect(rec.results.map((x) => x.outcome)).toEqual(['ok', 'fail', 'ok']);
    } finally {
      await sim.stop();
    }
  });

  it('fails every send of a port in failingPorts as the network refusing it (fdr 6 Timeout)', async () => {
    const sim = await GatewaySim.start({ ports: 3, sendDelayMs: 5, failingPorts: ['2'] });
    try {
      // setOutcome does not override a refusing network.
      sim.setOutcome(() => 'ok');
      const srUrl = rx.url('/sr-failing');
      const r = await send(sim, {
        type: 'send-sms',
        task_num: 2,
        sr_url: srUrl,
        sr_cnt: 1,
        tasks: [
          { tid: 201, to: '15550000011', sms: 'a', from: '2', sdr: 1, fdr: 1 },
          { tid: 202, to: '15550000012', sms: 'b', from: '3', sdr: 1, fdr: 1 },
        ],
      });
      // The device accepts both tasks: the refusal comes from the network, in the report.
      expect(r.status).toEqual([
        { tid: 201, status: '0 OK' },
        { tid: 202, status: '0 OK' },
      ]);
      await rx.waitFor(
        (m) => m.path === '/sr-failing' && m.body.rpts.some((e: ReportEntry) => e.tid === 201),
      );
      await rx.waitFor(
        (m) => m.path === '/sr-failing' && m.body.rpts.some((e: ReportEntry) => e.tid === 202),
      );
      const rpts = rx.of('/sr-failing').flatMap((m) => m.body.rpts as ReportEntry[]);
      const fdr = rpts.filter((e) => e.tid === 201).flatMap((e) => e.fdr);
      expect(fdr[0]).toEqual([0, '15550000011', '2.01', expect.any(Number), '6 Timeout', expect.any(String)]);
      expect(rpts.filter((e) => e.tid === 202).flatMap((e) => e.sdr).length).toBe(1);
      expect(sim.slot('2.01')!.st).toBe(3);
      await expect(GatewaySim.start({ failingPorts: ['two'] })).rejects.toThrow(/failingPorts/);
    } finally {
      await sim.stop();
    }
  });

  it('caches report rows until sr_cnt, and a base64 task decodes', async () => {
    const sim = await GatewaySim.start({ ports: 2, sendDelayMs: 5 });
    try {
      await send(sim, {
        type: 'send-sms',
        task_num: 1,
        sr_url: rx.url('/sr-batch'),
        sr_cnt: 10,
        tasks: [
          {
            tid: 5,
            to: '1,2,3,4',
            sms: Buffer.from('Grüße').toString('base64'),
            chs: 'base64',
            sdr: 1,
            from: '1',
          },
        ],
      });
      const [one] = await rx.waitFor((m) => m.path === '/sr-batch');
      expect(one!.body.rpts[0]).toMatchObject({ tid: 5, sent: 4, failed: 0, sending: 0, unsent: 0 });
      expect(one!.body.rpts[0].sdr.map((r: unknown[]) => r[0])).toEqual([0, 1, 2, 3]);
      expect(sim.sentTasks()[0]!.sms).toBe('Grüße');
    } finally {
      await sim.stop();
    }
  });

  it('pushes recv-sms as base64 UTF-8 to the sms_url given with a send request', async () => {
    const sim = await GatewaySim.start({ ports: 2 });
    try {
      await send(sim, { type: 'send-sms', task_num: 0, tasks: [], sms_url: rx.url('/in') });
      expect(sim.smsUrl).toBe(rx.url('/in'));
      const id1 = sim.injectSms({
        port: '2.01',
        from: '+15557654321',
        text: 'Your code is 123456 — ok',
        ts: 1700000000,
      });
      const id2 = sim.injectSms({ port: '1.01', from: 'Bank', text: 'second' });
      expect([id1, id2]).toEqual([1, 2]);
      const [m] = await rx.waitFor((x) => x.path === '/in');
      expect(m!.body).toMatchObject({ type: 'recv-sms', sms_num: 1 });
      const row = m!.body.sms[0];
      expect(row.slice(0, 5)).toEqual([0, '2.01', 1700000000, '+15557654321', sim.slot('2.01')!.sn]);
      expect(Buffer.from(row[5], 'base64').toString('utf8')).toBe('Your code is 123456 — ok');
      await rx.waitFor((x) => x.path === '/in', 2);
    } finally {
      await sim.stop();
    }
  });

  it('serves the inbox pull with next_sms and sms_del, and a new ssrc after reboot', async () => {
    const sim = await GatewaySim.start({ ports: 2 });
    try {
      for (let i = 1; i <= 3; i++) sim.injectSms({ port: '1.01', from: '100', text: `m${i}` });
      const a = await goip(sim.url, 'goip_get_sms.html', { sms_id: 1, sms_num: 2, sms_del: 0 });
      expect(a).toMatchObject({ code: 0, reason: 'OK', sms_num: 2, next_sms: 3 });
      expect(a.ssrc).toMatch(/^[0-9a-f]{16}$/);
      expect(a.data.map((r: string[]) => Buffer.from(r[5]!, 'base64').toString())).toEqual(['m1', 'm2']);
      const b = await goip(sim.url, 'goip_get_sms.html', { sms_id: a.next_sms, sms_num: 0, sms_del: 1 });
      expect(b).toMatchObject({ sms_num: 1, next_sms: 4, ssrc: a.ssrc });
      const c = await goip(sim.url, 'goip_get_sms.html', { sms_id: 1, sms_num: 0 });
      expect(c.sms_num).toBe(2); // m3 was deleted

      await sim.reboot(50);
      const d = await goip(sim.url, 'goip_get_sms.html', { sms_id: 4, sms_num: 0 });
      expect(d.ssrc).not.toBe(a.ssrc);
      expect(d.sms_num).toBe(0);
      expect(sim.injectSms({ port: '1.01', from: '100', text: 'after' })).toBe(1);
      const e = await goip(sim.url, 'goip_get_sms.html', { sms_id: 1 });
      expect(e).toMatchObject({ sms_num: 1, next_sms: 2 });
    } finally {
      await sim.stop();
    }
  });

  it('sends a carrier DLR as a recv-sms row with flag 1 when dr=1', async () => {
    const sim = await GatewaySim.start({ ports: 1, sendDelayMs: 5, dlrDelayMs: 10, smsUrl: rx.url('/dlr') });
    try {
      await send(sim, {
        type: 'send-sms',
        task_num: 1,
        tasks: [{ tid: 1, to: '15559990000', sms: 'x', dr: 1 }],
      });
      const [m] = await rx.waitFor((x) => x.path === '/dlr');
      const row = m!.body.sms[0];
      expect(row[0]).toBe(1);
      expect(row[1]).toBe('1.01');
      expect(row[4]).toBe('15559990000');
      expect(row[5]).toMatch(/^0 \d\d\/\d\d\/\d\d,\d\d:\d\d:\d\d\+00$/);
    } finally {
      await sim.stop();
    }
  });

  it('supports the legacy GET send, task listing, pause/resume and remove', async () => {
    const sim = await GatewaySim.start({ ports: 2, sendDelayMs: 100 });
    try {
      const legacy = await goip(sim.url, 'goip_send_sms.html', {
        port: 1,
        recipients: '15550001,15550002',
        sms: 'hi',
      });
      expect(legacy).toMatchObject({ code: 200, reason: 'OK', status: '0 OK' });
      const bad = await goip(sim.url, 'goip_send_sms.html', { port: 9, recipients: '1', sms: 'hi' });
      expect(bad).toMatchObject({ code: 2, reason: 'Invalid Port' });

      await send(sim, {
        type: 'send-sms',
        task_num: 1,
        tasks: [{ tid: 10, to: 'a,b,c,d,e', sms: 'slow', from: '2' }],
      });
      const paused = await goip(sim.url, 'goip_pause_sms.html', {}, { body: { tids: [10] } });
      expect(paused).toEqual({ code: 200, reason: 'OK', results: [{ tid: 10, status: '0 OK' }] });
      const list = await goip(sim.url, 'goip_get_tasks.html', { port: 2, has_content: 1 });
      expect(list).toMatchObject({
        code: 200,
        total_num: 1,
        tasks: [{ tid: 10, state: 1, from: '2', sms: 'slow' }],
      });
      const task10 = () => sim.sentTasks().find((t) => t.tid === 10)!;
      const pending = () => task10().results.filter((x) => x.outcome === 'pending').length;
      const atPause = pending();
      expect(atPause).toBeGreaterThanOrEqual(2);
      // Paused, only the SMS already on the air finishes; running, three more would have gone.
      await sleep(300);
      expect(pending()).toBeGreaterThanOrEqual(atPause - 1);
      await goip(sim.url, 'goip_resume_sms.html', {}, { body: { tids: [10] } });
      await goip(sim.url, 'goip_remove_sms.html', {}, { body: { tids: [10] } });
      // Removed once the SMS on the air (at most one) has finished.
      await vi.waitFor(() => expect(task10().outcome).toBe('removed'), { timeout: 2000 });
      const done = task10();
      expect(done.results.some((x) => x.outcome === 'removed')).toBe(true);
      expect((await goip(sim.url, 'goip_get_tasks.html')).total_num).toBe(0);
    } finally {
      await sim.stop();
    }
  });

  it('delivers an SMS sent to another simulated SIM (loop-back number discovery)', async () => {
    const network = new SimNetwork();
    const a = await GatewaySim.start({ ports: 1, seed: 100, withNumbers: false, sendDelayMs: 5, network });
    const b = await GatewaySim.start({
      ports: 1,
      seed: 101,
      sendDelayMs: 5,
      network,
      smsUrl: rx.url('/loop'),
    });
    try {
      const target = b.slot('1.01')!.sn;
      await send(a, { type: 'send-sms', task_num: 1, tasks: [{ tid: 1, to: `+${target}`, sms: 'whoami' }] });
      const [m] = await rx.waitFor((x) => x.path === '/loop');
      expect(m!.body.sms[0][3]).toBe(a.slot('1.01')!.msisdn);
      expect(a.slot('1.01')!.sn).toBe('');
    } finally {
      await a.stop();
      await b.stop();
    }
  });
});
