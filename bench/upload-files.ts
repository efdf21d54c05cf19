// npm run bench:upload — the bulk-send page's recipient files (CSV and TXT) read by
// recipientsFromFile, at 1, 2, 5 and 10 MB (the upload limit): time per MB stays flat when the work
// is linear in the file's size (a quadratic step would double it with every doubling). Run on a
// quiet machine; each size is read 5 times and the median kept. Results: bench/RESULTS.md.
import { recipientsFromFile, UPLOAD_MAX_BYTES } from '@simdock/contract';

const row = (i: number) => `1${String(5550000000 + i)},1${String(6660000000 + i)}`;

function csvOf(bytes: number): string {
  const rows: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const r = row(i);
    rows.push(r);
    size += r.length + 2;
  }
  return rows.join('\r\n');
}

function medianMs(fn: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b)[2]!;
}

console.log('size     csv ms   csv ms/MB   txt ms   txt ms/MB   recipients');
for (const mb of [1, 2, 5, 10]) {
  const bytes = Math.min(mb * 1024 * 1024, UPLOAD_MAX_BYTES);
  const csv = csvOf(bytes);
  const txt = csv.replaceAll(',', '\n');
  let count = 0;
  const csvMs = medianMs(() => {
    count = recipientsFromFile(csv, 'csv').valid.length;
  });
  const txtMs = medianMs(() => void recipientsFromFile(txt, 'txt'));
  const per = (ms: number) => (ms / (bytes / 1024 / 1024)).toFixed(0).padStart(9);
  console.log(
    `${String(mb).padStart(2)} MB ${csvMs.toFixed(0).padStart(9)} ${per(csvMs)} ${txtMs.toFixed(0).padStart(8)} ${per(txtMs)} ${String(count).padStart(12)}`,
  );
}
