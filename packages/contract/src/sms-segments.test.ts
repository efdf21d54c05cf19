import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assertProperty } from './property-seeds.ts';
import { isGsm7, smsSegments } from './sms-segments.ts';

describe('smsSegments: GSM-7', () => {
  it.each([
    [0, 0, 160, 160],
    [1, 1, 160, 159],
    [160, 1, 160, 0],
    [161, 2, 153, 145],
    [306, 2, 153, 0],
    [307, 3, 153, 152],
    [459, 3, 153, 0],
    [460, 4, 153, 152],
  ])('%i characters → %i segments', (len, segments, per, remaining) => {
    expect(smsSegments('a'.repeat(len))).toEqual({
      encoding: 'GSM-7',
      segments,
      charsPerSegment: per,
      length: len,
      remainingInSegment: remaining,
    });
  });

  it('the whole basic alphabet is GSM-7, including line breaks', () => {
    expect(isGsm7('@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./09:;<=>?¡AZÄÖÑÜ§¿azäöñüà')).toBe(true);
  });

  it('extension characters count 2 septets', () => {
    for (const c of ['^', '{', '}', '\\', '[', '~', ']', '|', '€', '\f']) {
      expect(smsSegments(c)).toMatchObject({ encoding: 'GSM-7', length: 2, segments: 1 });
    }
    expect(smsSegments('€'.repeat(80)).segments).toBe(1);
    expect(smsSegments(`${'€'.repeat(80)}a`)).toMatchObject({ length: 161, segments: 2 });
  });

  it('an escape pair is not split across parts', () => {
    // 152 septets then '€' (2): the pair moves to part 2.
    const s = smsSegments(`${'a'.repeat(152)}€${'a'.repeat(152)}`);
    expect(s.length).toBe(306);
    expect(s.segments).toBe(3);
    expect(s.remainingInSegment).toBe(153 - 1);
  });
});

describe('smsSegments: UCS-2', () => {
  it.each([
    [70, 1, 70, 0],
    [71, 2, 67, 63],
    [134, 2, 67, 0],
    [135, 3, 67, 66],
  ])('%i characters → %i segments', (len, segments, per, remaining) => {
    expect(smsSegments('ж'.repeat(len))).toEqual({
      encoding: 'UCS-2',
      segments,
      charsPerSegment: per,
      length: len,
      remainingInSegment: remaining,
    });
  });

  it('one non-GSM character switches the whole text', () => {
    expect(smsSegments(`${'a'.repeat(100)}ă`)).toMatchObject({ encoding: 'UCS-2', segments: 2, length: 101 });
    expect(smsSegments('`')).toMatchObject({ encoding: 'UCS-2' });
  });

  it('an emoji is 2 units', () => {
    expect(smsSegments('😀')).toMatchObject({
      encoding: 'UCS-2',
      length: 2,
      segments: 1,
      remainingInSegment: 68,
    });
    expect(smsSegments('😀'.repeat(35))).toMatchObject({ length: 70, segments: 1 });
    expect(smsSegments('😀'.repeat(36))).toMatchObject({ length: 72, segments: 2 });
  });

  it('a surrogate pair is not split across parts', () => {
    // 66 units then an emoji (2): it goes to part 2.
    const s = smsSegments(`${'ж'.repeat(66)}😀${'ж'.repeat(10)}`);
    expect(s.segments).toBe(2);
    expect(s.remainingInSegment).toBe(67 - 12);
  });

  it('a lone surrogate counts one unit', () => {
    expect(smsSegments('\ud800')).toMatchObject({ encoding: 'UCS-2', length: 1 });
  });
});

describe('smsSegments properties', () => {
  it('segments are consistent with the length', async () => {
    await assertProperty(
      fc.property(fc.string({ unit: 'binary', maxLength: 500 }), (text) => {
        const s = smsSegments(text);
        const single = s.encoding === 'GSM-7' ? 160 : 70;
        const part = s.encoding === 'GSM-7' ? 153 : 67;
        if (s.length === 0) expect(s.segments).toBe(0);
        else if (s.length <= single) expect(s.segments).toBe(1);
        else {
          // Never splitting a character costs at most one unit per part.
          expect(s.segments).toBeGreaterThanOrEqual(Math.ceil(s.length / part));
          expect(s.segments).toBeLessThanOrEqual(Math.ceil(s.length / (part - 1)));
        }
        expect(s.remainingInSegment).toBeGreaterThanOrEqual(0);
        expect(s.remainingInSegment).toBeLessThanOrEqual(s.charsPerSegment);
      }),
    );
  });
});
