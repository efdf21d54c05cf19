import Papa from 'papaparse';
import { type MessagingMessage, messagingMessage } from './messages.ts';
import { classifyRecipients, formatInvalidList, nonBlankLines, type ParsedRecipients } from './messaging.ts';

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

/**
 * The entries of an uploaded file, trimmed, empty ones dropped. A .txt file is read line by line;
 * a .csv file is parsed as CSV (quoted cells may hold commas, quotes and line breaks) and every cell
 * becomes one entry, row by row (a quoted cell holding line breaks gives one entry per line, since
 * entries end up one per line in the text area). The delimiter is guessed among comma, semicolon and tab (comma when
 * the file has one column). A byte-order mark is dropped.
 */
export function linesFromFileText(text: string, kind: UploadKind): string[] {
  const body = stripBom(text);
  if (kind === 'txt') return nonBlankLines(body);
  const parsed = Papa.parse<string[]>(body, {
    skipEmptyLines: 'greedy',
    delimitersToGuess: [',', ';', '\t'],
  });
  const out: string[] = [];
  for (const row of parsed.data) {
    for (const cell of row) {
      if (cell.includes('\n') || cell.includes('\r')) {
        for (const line of nonBlankLines(cell)) out.push(line);
      } else {
        const t = cell.trim();
        if (t !== '') out.push(t);
      }
    }
  }
  return out;
}

/** Recipients of an uploaded file: invalid numbers are dropped (and listed), duplicates removed. */
export function recipientsFromFile(text: string, kind: UploadKind): ParsedRecipients {
  return classifyRecipients(linesFromFileText(text, kind));
}

/** 'Invalid numbers in file: ' + the first five, with '...' when there are more (docs/product.md#forms). */
export function invalidNumbersInFileMessage(invalid: readonly string[]): MessagingMessage {
  return messagingMessage('invalidNumbersInFile', { numbers: formatInvalidList(invalid) });
}
