// The web performance budget (README.md): the JavaScript the browser must load before the login page can
// render, gzip-sized, must stay within BUDGET_KB. Reads Vite's manifest (build.manifest) after
// `vite build`:
//   initial JS of /login = the entry + its static imports (the modulepreloads of index.html)
//                          + the login page's chunk + its static imports.
// Prints the size table of every chunk (raw and gzip), the login route's chunks, and exits 1 over budget.
//   node apps/web/scripts/budget.mjs [distDir]
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

// 150 KB until 2026-11-26, when the typed endpoint client (`call`, the sign-in endpoints' declarations)
// and server errors shown in the user's language (i18n/server-messages.ts) took it from 149.3 to 150.7.
// 153 KB since 2026-11-27: account security on the sign-in page (the second-factor answer and its
// texts, the device token that lets an owner past the per-account sign-in limit, the recovery link)
// took it to 152.3 KB; the second step itself loads only when an account needs it.
// 157 KB since 2026-11-27, later: a signed-in start on /dashboard asks for the Dashboard's lists from
// the entry chunk (api/dashboard-data.ts: the fetchers and their answers' schemas), so on a slow network
// the content needs one round trip instead of waiting for the page's chunk first (156.6 KB).
// 158 KB since 2026-11-29: the client's re-authentication (a guarded call answered reauth_required waits
// for the shared dialog's proof and is sent again; the dialog itself loads with the shell) and the
// contract's new error codes and settings fields took it to 157.4 KB.
// 159 KB since 2026-11-29, later: a page whose code cannot load (an outage) keeps the shell, says "No
// connection" and loads by itself (app/PageUnavailable.tsx); every route's loader has it, so it is in
// the first bundle, where it must be when nothing more can load (158.3 KB).
// 160 KB since 2026-11-30: a GoIP box's web connection (the contract's gateway mode, web login and the
// form rule for them, which the entry chunk holds with the rest of the contract) took it to 159.1 KB.
export const BUDGET_KB = 160;
const LOGIN_PAGE = 'src/pages/login/LoginPage.tsx';

const here = dirname(fileURLToPath(import.meta.url));
const dist = resolve(process.argv[2] ?? join(here, '..', 'dist'));

/** @type {Record<string, {file: string, name?: string, src?: string, isEntry?: boolean, isDynamicEntry?: boolean, imports?: string[], dynamicImports?: string[]}>} */
let manifest;
try {
  manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
} catch (e) {
  console.error(`budget: no Vite manifest in ${dist}/.vite (run \`npm run build\` first): ${e.message}`);
  process.exit(2);
}

const kb = (n) => (n / 1024).toFixed(1).padStart(8);
const sizes = new Map();
function size(file) {
  let s = sizes.get(file);
  if (!s) {
    const bytes = readFileSync(join(dist, file));
    const br = join(dist, `${file}.br`); // written by precompress.mjs, what the server sends
    s = {
      raw: bytes.length,
      gzip: gzipSync(bytes, { level: 9 }).length,
      brotli: existsSync(br) ? statSync(br).size : undefined,
    };
    sizes.set(file, s);
  }
  return s;
}

/** A chunk's key and every chunk it imports statically (what the browser fetches before running it). */
function closure(key, into = new Set()) {
  if (into.has(key)) return into;
  const chunk = manifest[key];
  if (!chunk) throw new Error(`budget: ${key} is not in the manifest`);
  into.add(key);
  for (const dep of chunk.imports ?? []) closure(dep, into);
  return into;
}

const entries = Object.keys(manifest).filter((k) => manifest[k].isEntry);
if (entries.length !== 1) {
  console.error(`budget: expected one entry in the manifest, found ${entries.length}`);
  process.exit(2);
}
if (!manifest[LOGIN_PAGE]?.isDynamicEntry) {
  console.error(`budget: ${LOGIN_PAGE} must be its own lazily loaded chunk`);
  process.exit(1);
}
const initial = closure(entries[0]);
const login = closure(LOGIN_PAGE, new Set(initial));

// Every page under src/pages/ is lazy: its chunk is a dynamic entry, never part of the initial load.
const eagerPages = [...initial].filter((k) => k.startsWith('src/pages/'));

const jsChunks = Object.entries(manifest)
  .filter(([, c]) => c.file.endsWith('.js'))
  .map(([key, c]) => ({ key, file: c.file, ...size(c.file) }))
  .sort((a, b) => b.gzip - a.gzip);

console.log('\nJavaScript chunks (KB)              raw     gzip   brotli   on /login');
for (const c of jsChunks) {
  const mark = initial.has(c.key) ? 'entry' : login.has(c.key) ? 'login page' : '';
  const brotli = c.brotli === undefined ? '       -' : kb(c.brotli);
  console.log(
    `  ${c.file.replace(/^assets\//, '').padEnd(34)}${kb(c.raw)} ${kb(c.gzip)} ${brotli}   ${mark}`,
  );
}
const total = [...login].reduce((sum, k) => sum + size(manifest[k].file).gzip, 0);
const totalAll = jsChunks.reduce((sum, c) => sum + c.gzip, 0);
console.log(`\nAll JavaScript: ${jsChunks.length} chunks, ${kb(totalAll).trim()} KB gzip`);
console.log(
  `Login route initial JavaScript: ${login.size} chunks, ${kb(total).trim()} KB gzip (budget ${BUDGET_KB} KB)`,
);

let failed = false;
if (eagerPages.length) {
  console.error(`budget: pages in the initial load (they must be lazy): ${eagerPages.join(', ')}`);
  failed = true;
}
if (total > BUDGET_KB * 1024) {
  console.error(`budget: OVER by ${((total - BUDGET_KB * 1024) / 1024).toFixed(1)} KB`);
  failed = true;
}
process.exit(failed ? 1 : 0);
