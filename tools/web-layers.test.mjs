// `node --test tools/web-layers.test.mjs` (run by `npm run lint`): the web's layer rules in
// .dependency-cruiser.cjs refuse what they must and pass what they must, on a small tree that mirrors
// apps/web/src (app/ → pages/<screen>/ → shared folders).
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { cruise } from 'dependency-cruiser';

const config = createRequire(import.meta.url)('../.dependency-cruiser.cjs');
const SRC = 'apps/web/src';

/** Writes `files` (path → the paths it imports, relative to src/) under a temporary root. */
function tree(files) {
  const root = mkdtempSync(join(tmpdir(), 'web-layers-'));
  for (const [path, imports] of Object.entries(files)) {
    const depth = path.split('/').length - 1;
    const lines = imports.map((to, i) => `import { x as x${i} } from '${'../'.repeat(depth) || './'}${to}';`);
    mkdirSync(join(root, SRC, path, '..'), { recursive: true });
    writeFileSync(join(root, SRC, path), `${lines.join('\n')}\nexport const x = 1;\n`);
  }
  return root;
}

/** The rule violations dependency-cruiser reports for the tree, as `rule: from → to` (src/-relative). */
async function violations(files) {
  const root = tree(files);
  try {
    const { tsConfig: _none, ...options } = config.options;
    const result = await cruise([SRC], {
      ...options,
      baseDir: root,
      validate: true,
      ruleSet: { forbidden: config.forbidden },
    });
    const rel = (p) => p.slice(SRC.length + 1);
    return result.output.summary.violations
      .map((v) => `${v.rule.name}: ${rel(v.from)} → ${rel(v.to)}`)
      .sort();
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

test('a page importing app/ or another page, and shared code importing upwards, are refused', async () => {
  const found = await violations({
    'app/router.ts': ['pages/a/APage.ts', 'pages/b/BPage.ts'],
    'app/session.ts': [],
    'pages/a/APage.ts': ['app/session.ts', 'pages/b/BPage.ts', 'components/Button.ts'],
    'pages/a/APage.test.ts': ['app/router.ts', 'pages/a/APage.ts'],
    'pages/b/BPage.ts': ['components/Button.ts'],
    'components/Button.ts': [],
    'components/Menu.ts': ['app/session.ts'],
    'lib/format.ts': ['pages/b/BPage.ts'],
  });
  assert.deepEqual(found, [
    'web-page-not-app: pages/a/APage.test.ts → app/router.ts',
    'web-page-not-app: pages/a/APage.ts → app/session.ts',
    'web-page-not-other-page: pages/a/APage.ts → pages/b/BPage.ts',
    'web-shared-not-up: components/Menu.ts → app/session.ts',
    'web-shared-not-up: lib/format.ts → pages/b/BPage.ts',
  ]);
});

test('the allowed directions pass: app → pages → shared, within a page, and the test harness', async () => {
  const found = await violations({
    'main.tsx': ['app/router.ts', 'lib/theme.ts'],
    'app/router.ts': ['pages/a/APage.ts', 'session/session.ts'],
    'pages/a/APage.ts': ['pages/a/api.ts', 'components/Button.ts', 'session/session.ts'],
    'pages/a/api.ts': ['api/client.ts'],
    'pages/a/APage.test.ts': ['pages/a/APage.ts', 'test/utils.ts'],
    'components/Button.ts': ['lib/theme.ts'],
    'session/session.ts': ['api/client.ts'],
    'api/client.ts': [],
    'lib/theme.ts': [],
    'test/utils.ts': ['app/router.ts'],
  });
  assert.deepEqual(found, []);
});
