// Checks that API paths are written in one place: the endpoint declarations of packages/contract.
// Anywhere else a string literal starting with `/api/` ('…', "…" or `…`) is an error: the server
// registers its routes from the declarations and the web calls them with `call(endpoints.…)`.
// Allowed: packages/contract, e2e/ and bench/ (they test the API from outside, by its paths), test
// files and their helpers (`*.test.*`, `test/` folders, `test-*` files), the simulators (`tools/*-sim/`:
// they serve other products' APIs, a device's or a provider's, not SimDock's), the gateway drivers
// (they call a device's API), and comments (lines starting with //, /* or *).
// Run by `npm run lint`: `node tools/check-api-paths.mjs` prints each literal and exits 1.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { listFiles } from './check-links.mjs';

const SOURCE = /\.(ts|tsx|mjs|cjs|js)$/;
const ALLOWED = [
  /^packages\/contract\//,
  /^e2e\//,
  /^bench\//,
  /^tools\/[^/]+-sim\//,
  /^apps\/server\/src\/modules\/gateways\/driver\//,
  /\.test\.[a-z]+$/,
  /(^|\/)test(\/|-[^/]*$)/,
];
const LITERAL = /(?<!\\)['"`]\/api\//;
const COMMENT = /^\s*(\/\/|\/\*|\*)/;

/** `file:line: text` for each API path literal outside the allowed places. */
export function apiPathLiterals(root, files = listFiles(root)) {
  const found = [];
  for (const file of files) {
    if (!SOURCE.test(file) || ALLOWED.some((re) => re.test(file))) continue;
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (!COMMENT.test(line) && LITERAL.test(line)) found.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  }
  return found;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(fileURLToPath(import.meta.url), '../..');
  const found = apiPathLiterals(root);
  for (const f of found) console.error(f);
  if (found.length) {
    console.error(
      `\n${found.length} API path literal(s) outside packages/contract: declare the endpoint there and use it.`,
    );
    process.exit(1);
  }
}
