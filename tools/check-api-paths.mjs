// Checks that API paths are written in one place: the endpoint declarations of packages/contract.
// Anywhere else a string literal starting with `/api/` ('…', "…" or `…`) is an error: the server
// registers its routes from the declarations and the web calls them with `call(endpoints.…)`.
// Allowed: packages/contract, e2e/ and bench/ (they test the API from outside, by its paths), test
// files and their helpers (`*.test.*`, `test/` folders, `test-*` files), the simulators (`tools/*-sim/`:
// they serve other products' APIs, a device's or a provider's, not SimDock's), the gateway drivers
// (they call a device's API), and comments (lines starting with //, /* or *).
// The server's own tests call the API through the declarations too (`s.api(endpoints.…)`, see
// apps/server/README.md): only the files in SERVER_TESTS_ON_PATHS, where the path itself is under
// test, may write one.
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
/**
 * Server test files whose paths are under test: routing, 404s and fuzzing, the authorization matrix
 * read from the OpenAPI document, the OpenAPI document itself, raw or empty bodies and headers on a
 * path, the device push URLs, outage answers by path, request logs and metrics labelled by route.
 */
const SERVER_TESTS_ON_PATHS = [
  'apps/server/src/http/authz-matrix.test.ts',
  'apps/server/src/http/authz.test.ts',
  'apps/server/src/db-missing.test.ts',
  'apps/server/src/http/empty-bodies.test.ts',
  'apps/server/src/http/framework-errors.test.ts',
  'apps/server/src/http/fuzz.test.ts',
  'apps/server/src/http/readiness.test.ts',
  'apps/server/src/http/request-log.test.ts',
  'apps/server/src/http/security.test.ts',
  'apps/server/src/http/static.test.ts',
  'apps/server/src/modules/auth/auth.test.ts',
  'apps/server/src/modules/gateways/gateways.push.test.ts',
  'apps/server/src/modules/gateways/push-targets.test.ts',
  'apps/server/src/modules/messaging/chat.test.ts',
  'apps/server/src/modules/metrics/metrics.test.ts',
  'apps/server/src/modules/rental-api/v1.test.ts',
  'apps/server/src/modules/rental/rental.events.test.ts',
];
const SERVER_TESTS = /^apps\/server\/src\/(.*\.test\.ts$|test\/)/;
const LITERAL = /(?<!\\)['"`]\/api\//;
const COMMENT = /^\s*(\/\/|\/\*|\*)/;

/** `file:line: text` for each API path literal outside the allowed places. */
export function apiPathLiterals(root, files = listFiles(root)) {
  const found = [];
  for (const file of files) {
    if (!SOURCE.test(file)) continue;
    const serverTest = SERVER_TESTS.test(file);
    if (serverTest ? SERVER_TESTS_ON_PATHS.includes(file) : ALLOWED.some((re) => re.test(file))) continue;
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
      `\n${found.length} API path literal(s) outside packages/contract: declare the endpoint there and use it` +
        ' (server tests: `s.api(endpoints.…)`; a file where the path itself is under test goes in SERVER_TESTS_ON_PATHS).',
    );
    process.exit(1);
  }
}
