// `node --test tools/check-api-paths.test.mjs` (run by `npm run lint`): the API path check finds what it must.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { apiPathLiterals } from './check-api-paths.mjs';

// Built from parts so this file holds no literal the real check would read.
const API = ['', 'api', ''].join('/');

function repo(files) {
  const root = mkdtempSync(join(tmpdir(), 'check-api-paths-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return { root, files: Object.keys(files) };
}

test('finds path literals in every quote style, outside the allowed places', () => {
  const { root, files } = repo({
    'apps/web/src/pages/a/api.ts': `call('${API}user/info');\nconst b = "${API}x";\nconst c = \`${API}y/\${id}\`;\n`,
    'apps/server/src/x.routes.ts': `// GET ${API}not-a-literal in a comment: '${API}z'\n * '${API}doc'\nconst ok = 1;\n`,
    'packages/contract/src/endpoints/a.ts': `path: '${API}user/info',\n`,
    'e2e/a.test.ts': `'${API}a'\n`,
    'bench/otp.ts': `'${API}a'\n`,
    'tools/phone-sim/src/model.ts': `'${API}3rdparty/v1'\n`,
    'apps/server/src/modules/gateways/driver/smsgate.parse.ts': `'${API}3rdparty/v1'\n`,
    'apps/server/src/modules/gateways/push.service.ts': `'${API}gw'\n`,
    'tools/check-x.mjs': `'${API}a'\n`,
    'apps/server/src/modules/a/a.test.ts': `'${API}a'\n`,
    'apps/server/src/test/harness.ts': `'${API}a'\n`,
    'apps/server/src/http/fuzz.test.ts': `'${API}a'\n`,
    'apps/web/src/pages/a/test-fixtures.ts': `'${API}a'\n`,
    'apps/web/src/pages/a/latest-test.ts': `'${API}a'\n`,
    'apps/server/src/docs.ts': `const md = \`see \\\`${API}v1/orders\\\` for …\`;\n`,
  });
  assert.deepEqual(
    apiPathLiterals(root, files).map((f) => f.split(':').slice(0, 2).join(':')),
    [
      'apps/web/src/pages/a/api.ts:1',
      'apps/web/src/pages/a/api.ts:2',
      'apps/web/src/pages/a/api.ts:3',
      'apps/server/src/modules/gateways/push.service.ts:1',
      'tools/check-x.mjs:1',
      'apps/server/src/modules/a/a.test.ts:1',
      'apps/server/src/test/harness.ts:1',
      'apps/web/src/pages/a/latest-test.ts:1',
    ],
  );
});
