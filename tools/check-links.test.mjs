// `node --test tools/check-links.test.mjs` (run by `npm run lint`): the link check finds what it must.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { anchorsOf, checkLinks, slug } from './check-links.mjs';

// Built from parts so this file holds no reference the real check would read.
const ref = (name, anchor) => ['docs', name].join('/') + (anchor ? `#${anchor}` : '');
const GUIDE = ref('guide.md');

function repo(files) {
  const root = mkdtempSync(join(tmpdir(), 'check-links-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

test('GitHub heading slugs', () => {
  assert.equal(slug('Task codes'), 'task-codes');
  assert.equal(
    slug('Rental: number reuse (`rental`: `services.queries.ts`)'.replace(/`/g, '')),
    'rental-number-reuse-rental-servicesqueriests',
  );
  assert.deepEqual([...anchorsOf('# A\n## B b\n```\n# not a heading\n```\n## B b\n')], ['a', 'b-b', 'b-b-1']);
});

test('passes good links and reports each broken one', () => {
  const root = repo({
    [GUIDE]: '# Guide\n\n## Task codes\n\nSee [below](#task-codes) and [x](#nowhere).\n',
    'README.md': [
      `[ok](${ref('guide.md', 'task-codes')}) [site](https://example.com/x.md) [mail](mailto:a@b.c)`,
      `[gone](${ref('missing.md')}) [bad anchor](${ref('guide.md', 'no-such-heading')})`,
      '`[in code](nope/missing.md)`',
      '```',
      '[fenced](nope/missing.md)',
      '```',
    ].join('\n'),
    'src/a.ts': `// See ${ref('guide.md', 'task-codes')} and ${ref('gone.md')}.\n`,
  });
  try {
    const problems = checkLinks(root, [GUIDE, 'README.md', 'src/a.ts']);
    assert.deepEqual(
      problems.map((p) => `${p.file}:${p.line} ${p.target}`),
      [
        `${GUIDE}:5 #nowhere`,
        `README.md:2 ${ref('missing.md')}`,
        `README.md:2 ${ref('guide.md', 'no-such-heading')}`,
        `src/a.ts:1 ${ref('gone.md')}`,
      ],
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
