import { describe, expect, it } from 'vitest';
import { ProtocolError } from './driver.ts';
import { parseEjoinMms } from './ejoin.mms.ts';

const b64 = (t: string) => Buffer.from(t).toString('base64');

describe('Ejoin incoming MMS', () => {
  it('reads the Emms headers, the text and the files (quoted boundary, bare LF, raw and base64 parts)', () => {
    const raw = Buffer.concat([
      Buffer.from(
        '--b1\nContent-Type: application/smil\n\n<smil/>\n--b1\nContent-Type: text/plain; charset=utf-8\n\nHéllo\n',
      ),
      Buffer.from('--b1\nContent-Type: image/png\n\n'),
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x00, 0xff]),
      Buffer.from('\n--b1\nContent-Type: video/mp4\nContent-Transfer-Encoding: base64\n\n'),
      Buffer.from(Buffer.from([1, 2, 3]).toString('base64')),
      Buffer.from('\n--b1--\n'),
    ]);
    const mms = parseEjoinMms(
      {
        'content-type': 'multipart/related; type="application/smil"; boundary="b1"',
        'emms-from': b64('+15551230000/TYPE=PLMN'),
        'emms-to': b64('15559870000/TYPE=PLMN'),
        'emms-subject': b64('Hi ✓'),
        date: 'Tue, 24 Nov 2026 09:00:00 GMT',
      },
      raw,
    );
    expect(mms).toMatchObject({
      sender: '+15551230000',
      recipient: '15559870000',
      subject: 'Hi ✓',
      text: 'Héllo',
    });
    expect(mms.ts).toBe(Date.parse('2026-11-24T09:00:00Z') / 1000);
    expect(mms.attachments.map((a) => a.contentType)).toEqual(['image/png', 'video/mp4']);
    expect([...mms.attachments[0]!.data]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x00, 0xff]);
    expect([...mms.attachments[1]!.data]).toEqual([1, 2, 3]);
  });

  it('refuses what is not an MMS push', () => {
    expect(() => parseEjoinMms({ 'content-type': 'application/json' }, Buffer.from('{}'))).toThrow(
      ProtocolError,
    );
    expect(() =>
      parseEjoinMms({ 'content-type': 'multipart/related; boundary=x' }, Buffer.from('--x--')),
    ).toThrow(/Emms-From/);
  });
});
