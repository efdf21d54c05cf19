// `node --test tools/install-scripts.test.mjs` (run by `npm run lint`): `npm start` from a clean clone
// installs without a warning. npm 11 skips a dependency's install script unless package.json's
// `allowScripts` approves or denies it, and ends every install with a warning listing the ones it
// skipped; each such dependency must be decided there (esbuild's postinstall is denied: it only
// checks and relinks the binary its platform package already brings).
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const run = promisify(execFile);

test('every dependency with an install script is approved or denied in allowScripts', async (t) => {
  let out;
  try {
    out = await run('npm', ['install-scripts', 'ls'], { cwd: ROOT });
  } catch (err) {
    // npm before 11 has no install-script approvals (and no warning to avoid).
    if (/Unknown command|unknown command/i.test(`${err.stdout}${err.stderr}`)) return t.skip('npm < 11');
    throw err;
  }
  assert.match(out.stdout, /No packages with unreviewed install scripts/, out.stdout);
});
