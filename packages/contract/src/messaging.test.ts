import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { messagingMessages } from './messages.ts';
import {
  assignMessages,
  codePointLength,
  countLimitMessage,
  countNonBlankLines,
  deliveryIndicator,
  effectiveBatchLimit,
  formatInvalidList,
  historyTotalPages,
  invalidNumbersMessage,
  isValidPhone,
  MASS_SEND_MAX_MESSAGES,
  MASS_SEND_MAX_RECIPIENTS,
  MESSAGE_LINE_MAX,
  nonBlankLines,
  normalisePhone,
  PHONE_PATTERN,
  parseRecipients,
  recipientsOverLimit,
  typingLimitMessage,
  validateMassSend,
  validateMessages,
} from './messaging.ts';
import { assertProperty } from './property-seeds.ts';

const n = (i: number) => `1${String(5550000000 + i)}`;

describe('phone format (docs/product.md#forms: 1 followed by exactly 10 digits)', () => {
  it.each([
    ['15551234567', true],
    ['10000000000', true],
    ['25551234567', false],
    ['1555123456', false],
    ['155512345678', false],
    ['+15551234567', false],
    ['1555-123-4567', false],
    ['1555123456a', false],
    ['１5551234567', false],
    ['', false],
  ])('%s → %s', (value, ok) => {
    expect(isValidPhone(value)).toBe(ok);
  });

  it('PHONE_PATTERN is anchored', () => {
    expect(PHONE_PATTERN.test('x15551234567')).toBe(false);
    expect(PHONE_PATTERN.test('15551234567\n')).toBe(false);
  });
});

describe('normalisePhone (+1 and separators, before the rule)', () => {
  it.each([
    ['+15551234567', '15551234567'],
    ['+1 (555) 123-4567', '15551234567'],
    ['1 555 123 4567', '15551234567'],
    ['1-555-123-4567', '15551234567'],
    ['1.555.123.4567', '15551234567'],
    ['+1 [555] 123.45-67', '15551234567'],
    ['1\u00a0555\u00a0123\u00a04567', '15551234567'],
    ['15551234567', '15551234567'],
    // Only separators go: what is left is checked as it is (a 10-digit or foreign number stays invalid).
    ['(555) 123-4567', '5551234567'],
    ['+44 20 7946 0958', '442079460958'],
  ])('%s → %s', (entry, phone) => {
    expect(normalisePhone(entry)).toBe(phone);
  });

  it.each([
    ['abc'],
    ['1555123456x'],
    ['1+5551234567'],
    ['1/555/123/4567'],
    ['tel: 15551234567'],
    ['１5551234567'],
    [`1${' '.repeat(40)}5551234567`],
  ])('%s is left as it is', (entry) => {
    expect(normalisePhone(entry)).toBe(entry);
  });
});

describe('parseRecipients', () => {
  it('normalises formatted numbers; a number written two ways is one recipient', () => {
    const r = parseRecipients(
      '+1 (555) 123-4567\n15551234567\n1.555.123.4568\n+1 555 123 456\n+44 20 7946 0958',
    );
    expect(r.valid).toEqual(['15551234567', '15551234568']);
    expect(r.duplicatesRemoved).toBe(1);
    // Invalid entries are listed as they were typed, not as their digits.
    expect(r.invalid).toEqual(['+1 555 123 456', '+44 20 7946 0958']);
    expect(invalidNumbersMessage(r.invalid).text).toBe(
      'Invalid numbers (only accept format: 1XXXXXXXXXX): +1 555 123 456, +44 20 7946 0958',
    );
  });

  it('reads one number per line, trims, ignores blank lines, any line break', () => {
    const r = parseRecipients('  15551234567 \r\n\n   \n15551234568\r15551234569\t\n');
    expect(r).toEqual({
      valid: ['15551234567', '15551234568', '15551234569'],
      invalid: [],
      duplicatesRemoved: 0,
    });
  });

  it('lists invalid entries in order, every occurrence', () => {
    const r = parseRecipients('abc\n15551234567\n123\nabc');
    expect(r.valid).toEqual(['15551234567']);
    expect(r.invalid).toEqual(['abc', '123', 'abc']);
  });

  it('sends a repeated number once and counts the repeats', () => {
    const r = parseRecipients('15551234567\n15551234568\n15551234567\n 15551234567 ');
    expect(r.valid).toEqual(['15551234567', '15551234568']);
    expect(r.duplicatesRemoved).toBe(2);
  });

  it('empty text → nothing', () => {
    expect(parseRecipients('')).toEqual({ valid: [], invalid: [], duplicatesRemoved: 0 });
    expect(parseRecipients('\n \n\t')).toEqual({ valid: [], invalid: [], duplicatesRemoved: 0 });
  });

  // Its speed is the messaging benchmark's business (bench/messaging.ts), not a timed test's.
  it('parses 100,000 lines, every one kept', () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => n(i));
    const r = parseRecipients(lines.join('\n'));
    expect(r.valid).toHaveLength(100_000);
    expect(r.valid[99_999]).toBe(n(99_999));
  });

  it('a huge single line is simply invalid (no regex on long input)', () => {
    const r = parseRecipients('1'.repeat(2_000_000));
    expect(r.invalid).toHaveLength(1);
    expect(invalidNumbersMessage(r.invalid).text.length).toBeLessThan(100);
  });

  it('property: valid + invalid + duplicates = non-blank lines; valid are unique and well-formed', async () => {
    const line = fc.oneof(
      fc.integer({ min: 0, max: 20 }).map(n),
      fc.string({ maxLength: 14 }),
      fc.constantFrom('', '  ', '\t'),
    );
    await assertProperty(
      fc.property(fc.array(line, { maxLength: 60 }), fc.constantFrom('\n', '\r\n', '\r'), (lines, sep) => {
        const text = lines.join(sep);
        const r = parseRecipients(text);
        expect(r.valid.length + r.invalid.length + r.duplicatesRemoved).toBe(nonBlankLines(text).length);
        expect(new Set(r.valid).size).toBe(r.valid.length);
        for (const v of r.valid) expect(isValidPhone(v)).toBe(true);
        expect(countNonBlankLines(text)).toBe(nonBlankLines(text).length);
      }),
    );
  });
});

describe('messages (docs/product.md#forms: texts verbatim)', () => {
  it('invalid numbers: up to five, joined by ", "', () => {
    expect(invalidNumbersMessage(['a', 'b']).text).toBe(
      'Invalid numbers (only accept format: 1XXXXXXXXXX): a, b',
    );
    expect(invalidNumbersMessage(['1', '2', '3', '4', '5']).text).toBe(
      'Invalid numbers (only accept format: 1XXXXXXXXXX): 1, 2, 3, 4, 5',
    );
  });

  it('invalid numbers: "..." when more than five', () => {
    const m = invalidNumbersMessage(['1', '2', '3', '4', '5', '6', '7']);
    expect(m.text).toBe('Invalid numbers (only accept format: 1XXXXXXXXXX): 1, 2, 3, 4, 5...');
    expect(m).toMatchObject({ key: 'invalidNumbers', params: { numbers: '1, 2, 3, 4, 5...' } });
  });

  it('a very long invalid entry is cut for display', () => {
    expect(formatInvalidList(['x'.repeat(100)])).toBe(`${'x'.repeat(32)}…`);
  });

  it('user text in the list is not interpreted as a placeholder', () => {
    expect(invalidNumbersMessage(['{numbers}', '{limit}']).text).toBe(
      'Invalid numbers (only accept format: 1XXXXXXXXXX): {numbers}, {limit}',
    );
  });

  it('count limit and typing limit', () => {
    expect(countLimitMessage(100, 150).text).toBe(
      'Too many phone numbers! Limit is 100, but you provided 150.',
    );
    expect(countLimitMessage(100, 150)).toMatchObject({
      key: 'tooManyNumbers',
      params: { limit: 100, provided: 150 },
    });
    expect(typingLimitMessage(20).text).toBe('Limit is 20 numbers.');
  });

  it('templates use {name} placeholders the web catalogue can copy', () => {
    expect(messagingMessages.tooManyNumbers).toBe(
      'Too many phone numbers! Limit is {limit}, but you provided {provided}.',
    );
    expect(messagingMessages.messageLineTooLong).toBe('Each message line must not exceed 150 characters.');
    expect(messagingMessages.sendSuccess).toBe('Send successful!');
  });
});

describe('recipientsOverLimit (a paste over the limit is kept and marked)', () => {
  it('counts unique valid numbers over the limit; 0 when they fit', () => {
    expect(recipientsOverLimit(2, 2)).toBe(0);
    expect(recipientsOverLimit(0, 2)).toBe(0);
    expect(recipientsOverLimit(23, 20)).toBe(3);
  });

  it('counts what validateMassSend counts: repeats and invalid entries are not over the limit', () => {
    const text = [n(1), n(1), n(2), 'abc', n(3)].join('\n');
    const parsed = parseRecipients(text);
    expect(recipientsOverLimit(parsed.valid.length, 2)).toBe(1);
    expect(validateMassSend({ number: text.replace('abc', ''), mess: 'Hi' }, 2)).toMatchObject({
      ok: false,
      error: { key: 'tooManyNumbers', params: { limit: 2, provided: 3 } },
    });
    expect(recipientsOverLimit(parsed.valid.length, 3)).toBe(0);
  });

  it('a limit of 0 or a bad limit makes every number over it', () => {
    expect(recipientsOverLimit(1, 0)).toBe(1);
    expect(recipientsOverLimit(1, Number.NaN)).toBe(1);
    expect(recipientsOverLimit(4, -5)).toBe(4);
  });

  it('effectiveBatchLimit', () => {
    expect(effectiveBatchLimit(10.7)).toBe(10);
    expect(effectiveBatchLimit(Number.POSITIVE_INFINITY)).toBe(0);
    expect(effectiveBatchLimit(10_000_000)).toBe(MASS_SEND_MAX_RECIPIENTS);
  });
});

describe('validateMessages', () => {
  it('returns trimmed non-blank lines, repeats kept', () => {
    expect(validateMessages(' Hello \n\n  \r\nHi\nHello')).toEqual({
      ok: true,
      value: ['Hello', 'Hi', 'Hello'],
    });
  });

  it('150 characters pass, 151 fail with the spec text', () => {
    expect(validateMessages('a'.repeat(MESSAGE_LINE_MAX)).ok).toBe(true);
    const r = validateMessages(`ok\n${'a'.repeat(151)}`);
    expect(r).toMatchObject({ ok: false, error: { key: 'messageLineTooLong' } });
    if (!r.ok) expect(r.error.text).toBe('Each message line must not exceed 150 characters.');
  });

  it('counts characters as code points: 150 emoji pass', () => {
    expect(validateMessages('😀'.repeat(150)).ok).toBe(true);
    expect(validateMessages('😀'.repeat(151)).ok).toBe(false);
    expect(codePointLength('a😀b')).toBe(3);
    expect(codePointLength('\ud800')).toBe(1);
  });

  it('surrounding spaces do not count', () => {
    expect(validateMessages(`   ${'a'.repeat(150)}   `).ok).toBe(true);
  });

  it('empty content is an error', () => {
    const r = validateMessages(' \n\n');
    expect(r).toMatchObject({
      ok: false,
      error: { key: 'messageRequired', text: 'Please enter the message content.' },
    });
  });

  it('caps the number of variants', () => {
    const r = validateMessages(Array.from({ length: MASS_SEND_MAX_MESSAGES + 1 }, () => 'x').join('\n'));
    expect(r).toMatchObject({ ok: false, error: { key: 'tooManyMessageLines' } });
  });
});

describe('validateMassSend (page and server)', () => {
  const numbers = [n(1), n(2), n(3)].join('\n');

  it('accepts and cleans a good send', () => {
    expect(validateMassSend({ number: `${numbers}\n${n(1)}\n`, mess: 'Hi\n\nHello ' }, 10)).toEqual({
      ok: true,
      recipients: [n(1), n(2), n(3)],
      messages: ['Hi', 'Hello'],
      duplicatesRemoved: 1,
    });
  });

  it('the plan holds normalised numbers, a number written two ways counted once (server and page)', () => {
    const r = validateMassSend(
      { number: '+1 (555) 123-4567\n15551234567\n 1-555-123-4568 \n+15551234569', mess: 'Hi' },
      3,
    );
    expect(r).toEqual({
      ok: true,
      recipients: ['15551234567', '15551234568', '15551234569'],
      messages: ['Hi'],
      duplicatesRemoved: 1,
    });
    // Normalised before the limit: four lines, three numbers, a limit of 3 fits.
    expect(validateMassSend({ number: '+1 555 123 4567\n15551234567', mess: 'Hi' }, 1).ok).toBe(true);
  });

  it('invalid numbers come first', () => {
    const r = validateMassSend({ number: 'bad\n15551234567', mess: '' }, 0);
    expect(r).toMatchObject({ ok: false, field: 'number', error: { key: 'invalidNumbers' } });
  });

  it('no numbers', () => {
    const r = validateMassSend({ number: '\n \n', mess: 'Hi' }, 10);
    expect(r).toMatchObject({
      ok: false,
      field: 'number',
      error: { key: 'recipientsRequired', text: 'Please enter at least one phone number.' },
    });
  });

  it('over the limit, counted on unique valid numbers', () => {
    expect(validateMassSend({ number: numbers, mess: 'Hi' }, 2)).toMatchObject({
      ok: false,
      field: 'number',
      error: { text: 'Too many phone numbers! Limit is 2, but you provided 3.' },
    });
    expect(validateMassSend({ number: `${n(1)}\n${n(1)}\n${n(1)}`, mess: 'Hi' }, 1).ok).toBe(true);
    expect(validateMassSend({ number: numbers, mess: 'Hi' }, 0)).toMatchObject({
      error: { text: 'Too many phone numbers! Limit is 0, but you provided 3.' },
    });
  });

  it('message problems name the mess field', () => {
    expect(validateMassSend({ number: numbers, mess: '' }, 10)).toMatchObject({
      ok: false,
      field: 'mess',
      error: { key: 'messageRequired' },
    });
    expect(validateMassSend({ number: numbers, mess: 'x'.repeat(151) }, 10)).toMatchObject({
      ok: false,
      field: 'mess',
      error: { key: 'messageLineTooLong' },
    });
  });
});

describe('assignMessages (rotation)', () => {
  it('every recipient gets one variant, rotating', () => {
    expect(assignMessages(['a', 'b', 'c', 'd', 'e'], ['x', 'y'])).toEqual([
      { to: 'a', text: 'x' },
      { to: 'b', text: 'y' },
      { to: 'c', text: 'x' },
      { to: 'd', text: 'y' },
      { to: 'e', text: 'x' },
    ]);
  });

  it('more variants than recipients: the first ones are used', () => {
    expect(assignMessages(['a'], ['x', 'y'])).toEqual([{ to: 'a', text: 'x' }]);
  });

  it('no recipients → nothing; recipients without messages is a programming error', () => {
    expect(assignMessages([], [])).toEqual([]);
    expect(() => assignMessages(['a'], [])).toThrow(RangeError);
  });

  it('property: variant counts differ by at most one', async () => {
    await assertProperty(
      fc.property(fc.integer({ min: 0, max: 200 }), fc.integer({ min: 1, max: 20 }), (r, m) => {
        const recipients = Array.from({ length: r }, (_, i) => `r${i}`);
        const messages = Array.from({ length: m }, (_, i) => `m${i}`);
        const out = assignMessages(recipients, messages);
        expect(out.map((a) => a.to)).toEqual(recipients);
        const counts = messages.map((msg) => out.filter((a) => a.text === msg).length);
        expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('deliveryIndicator (docs/product.md#states-and-colours)', () => {
  it.each([
    [{ status: 1, result: null }, 'success'],
    [{ status: null, result: 1 }, 'success'],
    [{ status: 0, result: 1 }, 'success'],
    [{ status: 1, result: 0 }, 'success'],
    [{ status: 0, result: null }, 'fail'],
    [{ status: null, result: 0 }, 'fail'],
    [{ status: 2, result: 0 }, 'fail'],
    [{ status: null, result: null }, 'none'],
    [{ status: 2, result: 3 }, 'none'],
    [{}, 'none'],
  ] as const)('%o → %s', (m, expected) => {
    expect(deliveryIndicator(m)).toBe(expected);
  });
});

describe('historyTotalPages (docs/product.md#limits-and-timings)', () => {
  it.each([
    [120, 0, 50, 3],
    [100, 0, 50, 2],
    [0, 0, 50, 1],
    [undefined, 120, 50, 3],
    [null, 120, 50, 3],
    [0, 120, 50, 3],
    [undefined, undefined, 50, 1],
    [Number.NaN, 30, 10, 3],
    [500, 10, 500, 1],
    [501, 0, 500, 2],
  ])('total %s, numCnt %s, size %s → %s', (total, numCnt, size, pages) => {
    expect(historyTotalPages(total, numCnt, size)).toBe(pages);
  });
});
