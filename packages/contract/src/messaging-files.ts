import Papa from 'papaparse';
import { type MessagingMessage, messagingMessage } from './messages.ts';
import {
  classifyRecipients,
  formatInvalidList,
  nonBlankLines,
  normalisePhone,
  type ParsedRecipients,
} from './messaging.ts';

/**
 * Largest chat or API attachment (an MMS picture or video): the server's multipart limit refuses more
 * with 413 `file_too_large`, and the chat checks it before uploading.
 */
export const MMS_MAX_BYTES = 5 * 1024 * 1024;

/** Upload rules of the sending page (docs/product.md): one .txt or .csv file, at most 10 MB. */
export const UPLOAD_MAX_BYTES = 10 * 1024 * 1024;
export const UPLOAD_EXTENSIONS = ['.txt', '.csv'] as const;
/** For an <input type="file" accept>: the extensions plus their usual MIME types. */
export const UPLOAD_ACCEPT = '.txt,.csv,text/plain,text/csv';

export type UploadKind = 'txt' | 'csv';

export interface FileLike {
  name: string;
  size: number;
}

/** 'txt' or 'csv' from the file name's extension (any case), else undefined. */
export function uploadKind(name: string): UploadKind | undefined {
  const dot = name.lastIndexOf('.');
  if (dot < 0) return undefined;
  const ext = name.slice(dot + 1).toLowerCase();
  return ext === 'txt' || ext === 'csv' ? ext : undefined;
}

/** Why this file cannot be used, or undefined: wrong type, over 10 MB, or empty. */
export function fileProblem(file: FileLike): MessagingMessage | undefined {
  if (uploadKind(file.name) === undefined) return messagingMessage('fileType');
  if (!(file.size <= UPLOAD_MAX_BYTES)) return messagingMessage('fileTooLarge');
  if (file.size === 0) return messagingMessage('fileEmpty');
  return undefined;
}

/** As `fileProblem`, for a drop or a picker result: exactly one file. */
export function filesProblem(files: readonly FileLike[]): MessagingMessage | undefined {
  if (files.length === 0) return messagingMessage('fileRequired');
  if (files.length > 1) return messagingMessage('fileOneOnly');
  return fileProblem(files[0]!);
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** The rows of a .csv file (delimiter guessed among comma, semicolon and tab), cells as given. */
function csvRows(body: string): string[][] {
  return Papa.parse<string[]>(body, { skipEmptyLines: 'greedy', delimitersToGuess: [',', ';', '\t'] }).data;
}

/** A cell's entries: trimmed, none when blank; a quoted cell holding line breaks gives one per line. */
function pushCell(out: string[], cell: string): void {
  if (cell.includes('\n') || cell.includes('\r')) {
    for (const line of nonBlankLines(cell)) out.push(line);
  } else {
    const t = cell.trim();
    if (t !== '') out.push(t);
  }
}

/**
 * The entries of an uploaded file, trimmed, empty ones dropped. A .txt file is read line by line;
 * a .csv file is parsed as CSV (quoted cells may hold commas, quotes and line breaks) and every cell
 * becomes one entry, row by row (a quoted cell holding line breaks gives one entry per line, since
 * entries end up one per line in the text area). The delimiter is guessed among comma, semicolon and tab (comma when
 * the file has one column). A byte-order mark is dropped. Message files are read this way; numbers
 * files go through `recipientEntriesFromFileText`, which picks the phone column.
 */
export function linesFromFileText(text: string, kind: UploadKind): string[] {
  const body = stripBom(text);
  if (kind === 'txt') return nonBlankLines(body);
  const out: string[] = [];
  for (const row of csvRows(body)) for (const cell of row) pushCell(out, cell);
  return out;
}

/** Header cell words that name the phone column (any case): "Phone", "phone_number", "MSISDN", "To". */
const PHONE_HEADER_WORDS = new Set([
  'phone',
  'phones',
  'phonenumber',
  'mobile',
  'mobiles',
  'msisdn',
  'tel',
  'telephone',
  'cell',
  'cellphone',
  'to',
  'recipient',
  'recipients',
]);
/** "Number" names the phone column only when no other cell names it better ("Order number,Phone"). */
const NUMBER_HEADER_WORDS = new Set(['number', 'numbers']);
/** A header name is short; a longer first-row cell is data. */
const HEADER_CELL_MAX = 64;

/** 2: the cell names a phone column, 1: it says "number", 0: neither. */
function phoneHeaderScore(cell: string): number {
  if (cell.length > HEADER_CELL_MAX) return 0;
  // camelCase and any non-letter separate words: "PhoneNumber", "mobile_no", "Tel.", "Phone #".
  const words = cell
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z]+/);
  let score = 0;
  for (const w of words) {
    if (PHONE_HEADER_WORDS.has(w)) return 2;
    if (NUMBER_HEADER_WORDS.has(w)) score = 1;
  }
  return score;
}

/** Digits only once '+' and separators are dropped ("12", "+1 555-123-4567"), whatever the length. */
const isNumericCell = (cell: string): boolean => /^\d+$/.test(normalisePhone(cell));
/** Shaped like a phone number, valid here or not: 7 to 15 digits (E.164) once separators are dropped. */
const isPhoneLike = (cell: string): boolean => /^\d{7,15}$/.test(normalisePhone(cell));

/**
 * The column a header row names, or undefined when the first row is no header: a header has no
 * numeric cell and one cell naming the phone column (the best-named one wins, the first on a tie).
 */
function headerColumn(first: readonly string[]): number | undefined {
  let best: number | undefined;
  let bestScore = 0;
  for (let i = 0; i < first.length; i++) {
    const cell = first[i]!;
    if (isNumericCell(cell)) return undefined;
    const score = phoneHeaderScore(cell);
    if (score > bestScore) {
      best = i;
      bestScore = score;
    }
  }
  return best;
}

export interface FileRecipientEntries {
  /** The entries to check as numbers, trimmed, in file order. */
  entries: string[];
  /** The header of the column they were taken from, when the file has a header row. */
  header?: string;
}

/**
 * The entries of a numbers file (.txt: one column; .csv: parsed as `linesFromFileText` does).
 * - A header row (no numeric cell, one cell like phone/number/mobile/msisdn/tel/to/recipient, any
 *   case) names the column: its cells below are the entries; the other columns are not numbers.
 * - Without a header, a file of phone-shaped values only (a list or grid of numbers) gives every cell;
 *   otherwise the first column holding a phone-shaped value (7 to 15 digits) gives the entries, so
 *   names, notes and counters beside the numbers are not reported as invalid numbers.
 * Linear in the size of the file.
 */
export function recipientEntriesFromFileText(text: string, kind: UploadKind): FileRecipientEntries {
  const body = stripBom(text);
  const rows: string[][] =
    kind === 'txt' ? nonBlankLines(body).map((l) => [l]) : csvRows(body).map((r) => r.map((c) => c.trim()));
  const first = rows[0];
  if (!first) return { entries: [] };
  const header = headerColumn(first);
  let column: number | undefined = header;
  if (column === undefined && !rows.every((r) => r.every((c) => c === '' || isPhoneLike(c)))) {
    // The first column with a phone-shaped cell in any row; column 0 when there is none at all.
    let found = Number.POSITIVE_INFINITY;
    for (const row of rows) {
      const end = Math.min(row.length, found);
      for (let i = 0; i < end; i++) {
        if (isPhoneLike(row[i]!)) {
          found = i;
          break;
        }
      }
    }
    column = Number.isFinite(found) ? found : 0;
  }
  const out: string[] = [];
  if (column === undefined) {
    for (const row of rows) for (const cell of row) pushCell(out, cell);
    return { entries: out };
  }
  for (let r = header === undefined ? 0 : 1; r < rows.length; r++) {
    const cell = rows[r]![column];
    if (cell !== undefined) pushCell(out, cell);
  }
  return header === undefined ? { entries: out } : { entries: out, header: first[header]! };
}

export interface FileRecipients extends ParsedRecipients {
  /** The header of the column the numbers came from, when the file has a header row. */
  header?: string;
}

/**
 * Recipients of an uploaded file (`recipientEntriesFromFileText`): invalid numbers are dropped (and
 * listed), '+' and separators normalised, duplicates removed.
 */
export function recipientsFromFile(text: string, kind: UploadKind): FileRecipients {
  const { entries, header } = recipientEntriesFromFileText(text, kind);
  const parsed = classifyRecipients(entries);
  return header === undefined ? parsed : { ...parsed, header };
}

/** 'Invalid numbers in file: ' + the first five, with '...' when there are more (docs/product.md#forms). */
export function invalidNumbersInFileMessage(invalid: readonly string[]): MessagingMessage {
  return messagingMessage('invalidNumbersInFile', { numbers: formatInvalidList(invalid) });
}
