import { describe, expect, it } from 'vitest';
import { validateMessages } from './messaging.ts';
import {
  fileProblem,
  filesProblem,
  invalidNumbersInFileMessage,
  linesFromFileText,
  recipientEntriesFromFileText,
  recipientsFromFile,
  UPLOAD_MAX_BYTES,
  uploadKind,
} from './messaging-files.ts';

describe('upload checks (docs/product.md#forms: one .txt or .csv file, max 10 MB)', () => {
  it('kind from the extension, any case', () => {
    expect(uploadKind('numbers.txt')).toBe('txt');
    expect(uploadKind('Numbers.CSV')).toBe('csv');
    expect(uploadKind('a.b.csv')).toBe('csv');
    expect(uploadKind('numbers.xlsx')).toBeUndefined();
    expect(uploadKind('csv')).toBeUndefined();
    expect(uploadKind('numbers.csv.exe')).toBeUndefined();
  });

  it('fileProblem', () => {
    expect(fileProblem({ name: 'a.txt', size: 10 })).toBeUndefined();
    expect(fileProblem({ name: 'a.csv', size: UPLOAD_MAX_BYTES })).toBeUndefined();
    expect(fileProblem({ name: 'a.csv', size: UPLOAD_MAX_BYTES + 1 })?.text).toBe(
      'The file must not exceed 10 MB.',
    );
    expect(fileProblem({ name: 'a.csv', size: Number.NaN })?.key).toBe('fileTooLarge');
    expect(fileProblem({ name: 'a.pdf', size: 10 })?.text).toBe('Only .txt and .csv files are accepted.');
    expect(fileProblem({ name: 'a.txt', size: 0 })?.text).toBe('The file is empty.');
  });

  it('filesProblem: exactly one file', () => {
    expect(filesProblem([])?.key).toBe('fileRequired');
    expect(
      filesProblem([
        { name: 'a.txt', size: 1 },
        { name: 'b.txt', size: 1 },
      ])?.text,
    ).toBe('Please upload one file at a time.');
    expect(filesProblem([{ name: 'a.txt', size: 1 }])).toBeUndefined();
    expect(filesProblem([{ name: 'a.doc', size: 1 }])?.key).toBe('fileType');
  });
});

describe('linesFromFileText', () => {
  it('txt: line by line, trimmed, blank lines and BOM dropped', () => {
    expect(linesFromFileText('\uFEFF15551234567\r\n  \n 15551234568 \r15551234569', 'txt')).toEqual([
      '15551234567',
      '15551234568',
      '15551234569',
    ]);
  });

  it('txt: commas are content, not separators', () => {
    expect(linesFromFileText('Hello, world\nBye', 'txt')).toEqual(['Hello, world', 'Bye']);
  });

  it('csv: cells flattened row by row, empty cells dropped', () => {
    expect(linesFromFileText('15551234567,15551234568\n, ,15551234569\n\n', 'csv')).toEqual([
      '15551234567',
      '15551234568',
      '15551234569',
    ]);
  });

  it('csv: quoted cells keep commas and quotes; a BOM is dropped', () => {
    expect(linesFromFileText('\uFEFF"Hello, world","He said ""hi"""\r\nBye', 'csv')).toEqual([
      'Hello, world',
      'He said "hi"',
      'Bye',
    ]);
  });

  it('csv: a quoted cell with line breaks gives one entry per line', () => {
    expect(linesFromFileText('"first\nsecond",third', 'csv')).toEqual(['first', 'second', 'third']);
  });

  it('csv: semicolon and tab files (spreadsheet exports) are recognised', () => {
    expect(linesFromFileText('a;b\nc;d', 'csv')).toEqual(['a', 'b', 'c', 'd']);
    expect(linesFromFileText('a\tb\nc\td', 'csv')).toEqual(['a', 'b', 'c', 'd']);
  });

  it('csv: one column', () => {
    expect(linesFromFileText('15551234567\n15551234568\n', 'csv')).toEqual(['15551234567', '15551234568']);
  });

  it('csv: an unclosed quote does not lose data', () => {
    expect(linesFromFileText('"abc,def\nghi', 'csv').join('|')).toContain('abc,def');
  });

  it('message files feed validateMessages', () => {
    const lines = linesFromFileText('"Hi, there",Bye\n', 'csv');
    expect(validateMessages(lines.join('\n'))).toEqual({ ok: true, value: ['Hi, there', 'Bye'] });
  });
});

describe('recipientsFromFile: the phone column', () => {
  it('a header row names the phone column; only its cells are checked, only really invalid ones listed', () => {
    const r = recipientsFromFile(
      'phone,name\n15551234567,Ann\n15551234568,Bob\n15551234567,Ann\n999,Cy',
      'csv',
    );
    expect(r.valid).toEqual(['15551234567', '15551234568']);
    expect(r.invalid).toEqual(['999']);
    expect(r.duplicatesRemoved).toBe(1);
    expect(r.header).toBe('phone');
    expect(invalidNumbersInFileMessage(r.invalid).text).toBe('Invalid numbers in file: 999');
  });

  it('quoted cells with commas do not shift the columns', () => {
    const csv =
      'name,phone,note\n"Lee, Ann",15551234567,"call after 5, not before"\n"Tran, ""Bo""",15551234568,\n';
    expect(recipientsFromFile(csv, 'csv')).toEqual({
      valid: ['15551234567', '15551234568'],
      invalid: [],
      duplicatesRemoved: 0,
      header: 'phone',
    });
  });

  it.each([
    ['Phone'],
    ['PHONE NUMBER'],
    ['phone_number'],
    ['PhoneNumber'],
    ['Mobile No.'],
    ['msisdn'],
    ['Tel'],
    ['To'],
    ['Recipient'],
    ['Number'],
  ])('header %s, any case, any column', (name) => {
    const r = recipientsFromFile(
      `Name,${name},City\nAnn,15551234567,Hanoi\nBob,+1 (555) 123-4568,Hue\n`,
      'csv',
    );
    expect(r.valid).toEqual(['15551234567', '15551234568']);
    expect(r.invalid).toEqual([]);
    expect(r.header).toBe(name);
  });

  it('a cell naming the phone better wins over "number"', () => {
    const r = recipientsFromFile('Order number,Mobile\n12345,15551234567\n', 'csv');
    expect(r.valid).toEqual(['15551234567']);
    expect(r.invalid).toEqual([]);
    expect(r.header).toBe('Mobile');
  });

  it('semicolon and tab files with a header', () => {
    expect(recipientsFromFile('Name;Phone\nAnn;15551234567', 'csv').valid).toEqual(['15551234567']);
    expect(recipientsFromFile('Name\tPhone\nAnn\t15551234567', 'csv').valid).toEqual(['15551234567']);
  });

  it('a first row with a number in it is data, not a header', () => {
    const r = recipientsFromFile('15551234567,phone\n15551234568,x', 'csv');
    expect(r.header).toBeUndefined();
    expect(r.valid).toEqual(['15551234567', '15551234568']);
  });

  it('without a header: the first column holding phone-shaped values', () => {
    const r = recipientsFromFile('Ann,15551234567,Hanoi\nBob,1555123,Hue\nCy,,Vinh\n', 'csv');
    expect(r.valid).toEqual(['15551234567']);
    expect(r.invalid).toEqual(['1555123']);
    expect(r.header).toBeUndefined();
    // A counter column before the numbers is not phone-shaped.
    expect(recipientsFromFile('1,15551234567\n2,+1 555 123 4568\n', 'csv')).toEqual({
      valid: ['15551234567', '15551234568'],
      invalid: [],
      duplicatesRemoved: 0,
    });
  });

  it('without a header, a first row of words naming no phone column is data (and listed)', () => {
    const r = recipientsFromFile('name,contact\nAnn,15551234567\n', 'csv');
    expect(r.valid).toEqual(['15551234567']);
    expect(r.invalid).toEqual(['contact']);
  });

  it('a file of numbers only (a list or a grid) gives every cell', () => {
    expect(recipientsFromFile('15551234567,15551234568\n, ,+1 555 123 4569\n', 'csv').valid).toEqual([
      '15551234567',
      '15551234568',
      '15551234569',
    ]);
    expect(recipientsFromFile('15551234567,15551234568,15551234569', 'csv').valid).toHaveLength(3);
  });

  it('nothing phone-shaped at all: the first column, listed as invalid', () => {
    const r = recipientsFromFile('Ann,Hanoi\nBob,Hue', 'csv');
    expect(r.valid).toEqual([]);
    expect(r.invalid).toEqual(['Ann', 'Bob']);
  });

  it('txt: a header line is skipped, formatted numbers normalised', () => {
    const r = recipientsFromFile('\uFEFFPhone numbers\n+1 (555) 123-4567\n1-555-123-4568\nabc\n', 'txt');
    expect(r).toEqual({
      valid: ['15551234567', '15551234568'],
      invalid: ['abc'],
      duplicatesRemoved: 0,
      header: 'Phone numbers',
    });
    expect(recipientsFromFile('15551234567\nhello', 'txt').invalid).toEqual(['hello']);
  });

  it('a header with nothing under it, and an empty file', () => {
    expect(recipientEntriesFromFileText('phone,name\n', 'csv')).toEqual({ entries: [], header: 'phone' });
    expect(recipientEntriesFromFileText('', 'csv')).toEqual({ entries: [] });
    expect(recipientEntriesFromFileText(' \n', 'txt')).toEqual({ entries: [] });
  });

  it('short rows lacking the phone column are skipped', () => {
    expect(recipientsFromFile('name,phone\nAnn\nBob,15551234567', 'csv').valid).toEqual(['15551234567']);
  });

  it('"..." after five', () => {
    const m = invalidNumbersInFileMessage(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(m).toEqual({
      key: 'invalidNumbersInFile',
      params: { numbers: 'a, b, c, d, e...' },
      text: 'Invalid numbers in file: a, b, c, d, e...',
    });
  });

  // Its time per MB stays flat from 1 to 10 MB: a benchmark shows it (bench/upload-files.ts), not a
  // timed test (a loaded machine fails a time bound; a quadratic step would take minutes here).
  it('a file of the upload limit (10 MB) is read whole, CSV and TXT alike', () => {
    const row = (i: number) => `1${String(5550000000 + i)},1${String(6660000000 + i)}`;
    const rows: string[] = [];
    let size = 0;
    for (let i = 0; size < UPLOAD_MAX_BYTES; i++) {
      const r = row(i);
      rows.push(r);
      size += r.length + 2;
    }
    const csv = rows.join('\r\n');
    const txt = csv.replaceAll(',', '\n');
    const fromCsv = recipientsFromFile(csv, 'csv');
    const fromTxt = recipientsFromFile(txt, 'txt');
    expect(fromCsv.valid.length).toBe(rows.length * 2);
    expect(fromTxt.valid).toEqual(fromCsv.valid);
  }, 60_000);
});
