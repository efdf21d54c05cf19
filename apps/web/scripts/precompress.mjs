// Post-build step: writes a brotli (.br) and a gzip (.gz) copy beside every compressible file of the
// web build, so the server sends them as they are (@fastify/static `preCompressed`) instead of
// compressing on every request. Files that do not get smaller (already compressed fonts, tiny files)
// are left alone; the server then sends the file itself.
//   node apps/web/scripts/precompress.mjs [distDir]
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const COMPRESSIBLE = new Set([
  '.js',
  '.mjs',
  '.css',
  '.html',
  '.svg',
  '.json',
  '.txt',
  '.xml',
  '.webmanifest',
]);
const MIN_BYTES = 256;

const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(process.argv[2] ?? join(here, '..', 'dist'));

function* files(dir) {
  for (const name of readdirSync(dir)) {
    if (name.startsWith('.')) continue; // .vite/manifest.json is for the build, never served
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* files(path);
    else yield path;
  }
}

let count = 0;
let raw = 0;
let br = 0;
for (const path of files(dist)) {
  if (!COMPRESSIBLE.has(extname(path))) continue;
  const bytes = readFileSync(path);
  if (bytes.length < MIN_BYTES) continue;
  const brotli = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  });
  const gzip = gzipSync(bytes, { level: 9 });
  if (brotli.length < bytes.length) writeFileSync(`${path}.br`, brotli);
  if (gzip.length < bytes.length) writeFileSync(`${path}.gz`, gzip);
  count++;
  raw += bytes.length;
  br += Math.min(brotli.length, bytes.length);
}
console.log(
  `precompress: ${count} files, ${(raw / 1024).toFixed(0)} KB → ${(br / 1024).toFixed(0)} KB brotli (+ gzip) in ${dist}`,
);
