import { describe, expect, it } from 'vitest';
import { ProtocolError } from './driver.ts';
import {
  boxTimeSeconds,
  decodeBoxText,
  inboxItems,
  parseInboxPage,
  parseSendReply,
  parseSendStatus,
  parseStatusXml,
  resolveReferences,
} from './goip.web.parse.ts';

const STATUS = `<?xml version="1.0" encoding="gb2312"?>
<status>
<l1_gsm_sim>Y</l1_gsm_sim>
<l1_gsm_status>LOGIN</l1_gsm_status>
<l1_gsm_signal>23</l1_gsm_signal>
<l1_gsm_cur_oper>Viettel&#32;Mobile</l1_gsm_cur_oper>
<l1_gsm_imei>860000000000011</l1_gsm_imei>
<l1_line_state>IDLE</l1_line_state>
<l2_gsm_sim>N</l2_gsm_sim>
<l2_gsm_status>LOGOUT</l2_gsm_status>
<l2_gsm_signal>99</l2_gsm_signal>
<l2_gsm_cur_oper></l2_gsm_cur_oper>
<l2_gsm_imei>860000000000029</l2_gsm_imei>
<l3_gsm_sim>Y</l3_gsm_sim>
<l3_gsm_status>LOGOUT</l3_gsm_status>
<l3_gsm_signal>99</l3_gsm_signal>
<l3_gsm_cur_oper>M&#246;bil</l3_gsm_cur_oper>
<l3_gsm_imei>860000000000037</l3_gsm_imei>
</status>
`;

describe('status.xml', () => {
  it('lists one SIM per line in the platform’s words', () => {
    const s = parseStatusXml(STATUS, 'roof');
    expect(s).toMatchObject({ externalId: 'roof', complete: true, maxPorts: 3, maxSlots: 1 });
    expect(s.sims.map((x) => [x.slot, x.state, x.deviceState])).toEqual([
      ['1', 'ready', null],
      ['2', 'empty', null],
      ['3', 'starting', 'LOGOUT'],
    ]);
    expect(s.sims[0]).toMatchObject({ operator: 'Viettel Mobile', signal: 23, imei: '860000000000011' });
    expect(s.sims[1]).toMatchObject({ operator: null, signal: null, imei: '860000000000029' });
    expect(s.sims[2]).toMatchObject({ operator: 'Möbil', signal: null });
  });

  it('reads gb2312 bytes without choking: ASCII and references kept, other bytes replaced', () => {
    const gb = Buffer.concat([
      Buffer.from('<status><l1_gsm_sim>Y</l1_gsm_sim><l1_gsm_status>LOGIN</l1_gsm_status><l1_gsm_cur_oper>'),
      Buffer.from([0xd6, 0xd0, 0xb9, 0xfa]),
      Buffer.from('&#20013;</l1_gsm_cur_oper></status>'),
    ]);
    const s = parseStatusXml(decodeBoxText(gb), 'b');
    expect(s.sims[0]!.state).toBe('ready');
    expect(s.sims[0]!.operator).toMatch(/中$/);
  });

  it('a page with no line is a protocol error', () => {
    expect(() => parseStatusXml('<html>Login</html>', 'b')).toThrow(ProtocolError);
  });

  it('resolves references, leaving one to no character as written', () => {
    expect(resolveReferences('a&#38;b&#x41;&lt;&amp;&#1114112;')).toBe('a&bA<&&#1114112;');
  });
});

describe('send.html and send_status.xml', () => {
  it('reads the ID the box gave the send, or its refusal', () => {
    expect(parseSendReply('Sending,L1 Send SMS to:15551112222; ID:0000001f')).toEqual({ id: '0000001f' });
    expect(parseSendReply('ERROR, bad line, number or text')).toEqual({
      refused: 'ERROR, bad line, number or text',
    });
  });

  it("reads a line's last send", () => {
    const xml =
      '<send-sms-status><id1>0000001f</id1><status1>DONE</status1><error1></error1>' +
      '<id2>00000020</id2><status2>ERROR</status2><error2>GSM_LOGOUT</error2><id3></id3></send-sms-status>';
    expect(parseSendStatus(xml, 1)).toEqual({ id: '0000001f', status: 'DONE', error: '' });
    expect(parseSendStatus(xml, 2)).toEqual({ id: '00000020', status: 'ERROR', error: 'GSM_LOGOUT' });
    expect(parseSendStatus(xml, 3)).toBeUndefined();
    expect(parseSendStatus(xml, 4)).toBeUndefined();
  });
});

const inboxPage = (lines: string[][]) =>
  `<html><body>${lines
    .map(
      (list, i) =>
        `<script type="text/javascript">\nsms= [${list.map((m) => JSON.stringify(m).replace(/</g, '\\u003c')).join(',')}];\nsms_row_insert(l${i + 1}_sms_store, sms, 0, ${i + 1});\n</script>`,
    )
    .join('\n')}</body></html>`;

describe('the inbox page', () => {
  const now = new Date('2026-11-30T03:00:00Z');

  it('reads each line’s SMS whole: `;`, `:`, commas, `]`, quotes, capitals and Unicode kept', () => {
    const html = inboxPage([
      [
        '11-30 02:59:58,+15553334444,Your Code: 1234; valid, 5 min [OK] "Ñandú" ✓ </script>',
        '11-30 02:58:00,100,hi',
      ],
      [],
      ['11-29 23:00:00,Telegram,Telegram code 55555'],
    ]);
    expect(parseInboxPage(html)).toEqual([
      {
        line: 1,
        boxTime: '11-30 02:59:58',
        sender: '+15553334444',
        text: 'Your Code: 1234; valid, 5 min [OK] "Ñandú" ✓ </script>',
      },
      { line: 1, boxTime: '11-30 02:58:00', sender: '100', text: 'hi' },
      { line: 3, boxTime: '11-29 23:00:00', sender: 'Telegram', text: 'Telegram code 55555' },
    ]);
  });

  it('infers the year: never more than a day ahead of now', () => {
    expect(boxTimeSeconds('11-30 02:59:58', now)).toBe(Date.parse('2026-11-30T02:59:58Z') / 1000);
    // Tomorrow (a box clock ahead by its time zone) is this year; next week is last year's.
    expect(boxTimeSeconds('12-01 01:00:00', now)).toBe(Date.parse('2026-12-01T01:00:00Z') / 1000);
    expect(boxTimeSeconds('12-07 01:00:00', now)).toBe(Date.parse('2025-12-07T01:00:00Z') / 1000);
    // 31 December read on 1 January.
    expect(boxTimeSeconds('12-31 23:59:00', new Date('2027-01-01T00:10:00Z'))).toBe(
      Date.parse('2026-12-31T23:59:00Z') / 1000,
    );
    // 29 February: the last leap year.
    expect(boxTimeSeconds('02-29 10:00:00', now)).toBe(Date.parse('2024-02-29T10:00:00Z') / 1000);
    expect(boxTimeSeconds('13-01 00:00:00', now)).toBeUndefined();
    expect(boxTimeSeconds('garbage', now)).toBeUndefined();
  });

  it('keys each SMS by box, line, time, sender and text; skips those older than the watermark', () => {
    const entries = parseInboxPage(
      inboxPage([
        ['11-30 02:59:58,+1555,new', '11-30 02:59:50,+1555,same second kept', '11-30 02:00:00,+1555,old'],
      ]),
    );
    const from = Date.parse('2026-11-30T02:59:50Z') / 1000;
    const r = inboxItems(entries, 'roof', from, now);
    expect(r.items.map((i) => i.text)).toEqual(['same second kept', 'new']);
    expect(r.nextId).toBe(Date.parse('2026-11-30T02:59:58Z') / 1000);
    expect(r.items[1]).toMatchObject({ isReport: false, port: '1', sender: '+1555', recipient: null });
    expect(r.items[1]!.dedupeKey).toMatch(/^goip-web:roof:1:11-30 02:59:58:\+1555:[0-9a-f]{64}$/);
    // Dated after the last read: it came since, and is dated by the platform's clock (a box clock
    // hours behind UTC must not make a fresh code look older than its rental); the same second as
    // the watermark keeps the box's time.
    expect(r.items.map((i) => i.ts)).toEqual([from, null]);
    expect(r.boxSeconds).toEqual([from, Date.parse('2026-11-30T02:59:58Z') / 1000]);
    // An empty inbox read for the first time: what comes next is recent.
    expect(inboxItems([], 'roof', 1, now)).toEqual({ items: [], boxSeconds: [], nextId: 2 });
    // The first read keeps every box time: what it finds may be old.
    expect(inboxItems(entries, 'roof', 1, now).items.map((i) => i.ts)).toEqual([
      Date.parse('2026-11-30T02:00:00Z') / 1000,
      from,
      Date.parse('2026-11-30T02:59:58Z') / 1000,
    ]);
    // The same inbox read again: the same keys.
    expect(inboxItems(entries, 'roof', from, now).items.map((i) => i.dedupeKey)).toEqual(
      r.items.map((i) => i.dedupeKey),
    );
    // Nothing new: the watermark stays where it was.
    expect(inboxItems([], 'roof', from, now)).toEqual({ items: [], boxSeconds: [], nextId: from });
    const newest = Date.parse('2026-11-30T02:59:58Z') / 1000;
    expect(inboxItems(entries, 'roof', newest, now).nextId).toBe(newest);
  });

  it('says when even the newest SMS is older than the watermark (a clock set back): nextId goes back', () => {
    // A box without NTP rebooted: its clock starts again on 1 January.
    const entries = parseInboxPage(inboxPage([['01-01 00:02:10,+1555,after the reboot']]));
    const watermark = Date.parse('2026-11-30T02:59:58Z') / 1000;
    const r = inboxItems(entries, 'roof', watermark, now);
    expect(r).toEqual({ items: [], boxSeconds: [], nextId: Date.parse('2026-01-01T00:02:10Z') / 1000 });
    // Read again from the start (the catch-up's rule for ids that went back): the SMS is there.
    expect(inboxItems(entries, 'roof', 1, now).items.map((i) => i.text)).toEqual(['after the reboot']);
  });
});
