import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { docsProblems, readDocs, section, tableRows } from './check.ts';
import { type Facts, readFacts } from './facts.ts';

const facts = readFacts();
const docs = readDocs();
const withFacts = (change: (f: Facts) => void): Facts => {
  const copy = structuredClone(facts);
  change(copy);
  return copy;
};

describe('the docs held against the code', () => {
  it('agree today', () => {
    assert.deepEqual(docsProblems(facts, docs), []);
  });

  it('reads the facts it holds them against', () => {
    assert.ok(facts.modules.some((m) => m.name === 'billing' && m.tables.includes('ledger')));
    assert.ok(facts.modules.some((m) => m.jobs.includes('order-expiry')));
    assert.ok(facts.routes.some((r) => r.path === 'dashboard' && r.folder === 'dashboard'));
    assert.ok(facts.pageEndpoints.dashboard?.includes('POST /api/Order/create'));
    assert.ok(facts.workspaces.includes('tools/phone-sim'));
  });

  it('fails on a module added without its docs: the module table, both READMEs, its tables and jobs', () => {
    const problems = docsProblems(
      withFacts((f) => f.modules.push({ name: 'fax', tables: ['faxes'], jobs: ['fax-retry'] })),
      docs,
    );
    assert.deepEqual(problems, [
      'docs/architecture.md (Modules): module `fax` is missing',
      'docs/architecture.md (Jobs): job `fax-retry` is missing',
      'README.md (Architecture): module `fax` is missing',
      'apps/server/README.md (Modules today): module `fax` is missing',
    ]);
  });

  it('fails on a table or a job a module gains, and on a module the docs name that is gone', () => {
    const problems = docsProblems(
      withFacts((f) => {
        const billing = f.modules.find((m) => m.name === 'billing')!;
        billing.tables.push('invoices');
        billing.jobs.push('billing-statements');
        f.modules = f.modules.filter((m) => m.name !== 'overview');
      }),
      docs,
    );
    assert.ok(problems.includes('docs/architecture.md (Modules, billing): table `invoices` is missing'));
    assert.ok(problems.includes('docs/architecture.md (Jobs): job `billing-statements` is missing'));
    assert.ok(problems.includes('docs/architecture.md (Modules): module `overview` does not exist'));
    assert.ok(problems.includes('apps/server/README.md (Modules today): module `overview` does not exist'));
  });

  it("fails on a web shared folder the README's layers lack, and on one it names that is gone", () => {
    const problems = docsProblems(
      withFacts((f) => {
        f.webShared.push('theme');
        f.webShared = f.webShared.filter((d) => d !== 'live');
      }),
      docs,
    );
    assert.deepEqual(
      problems.filter((p) => p.startsWith('apps/web/README.md (Layers)')),
      [
        'apps/web/README.md (Layers): shared folder `theme` is missing',
        'apps/web/README.md (Layers): shared folder `live` does not exist',
      ],
    );
  });

  it('fails on a route, a page folder or an endpoint a page calls that the screen map lacks', () => {
    const problems = docsProblems(
      withFacts((f) => {
        f.routes.push({ path: 'reports', folder: 'reports' });
        f.pageFolders.push('reports');
        f.pageEndpoints.reports = ['POST /api/Reports/list'];
        f.pageEndpoints.dashboard!.push('POST /api/Order/extend');
      }),
      docs,
    );
    assert.deepEqual(problems, [
      'docs/screens.md: route `/reports` is missing',
      'docs/screens.md: page folder `reports` is missing',
      'docs/screens.md (dashboard): endpoint `POST /api/Order/extend` that the page calls is missing',
      'docs/product.md (Screens and routes): route `/reports` is missing',
    ]);
  });

  it('fails on a file or folder added at the top of a layout the READMEs describe', () => {
    const problems = docsProblems(
      withFacts((f) => {
        f.layout['apps/server/src']!.push('queue');
        f.workspaces.push('tools/smpp-sim');
      }),
      docs,
    );
    assert.deepEqual(problems, [
      'docs/architecture.md (workspaces): workspace `tools/smpp-sim` is missing',
      'README.md (Architecture): workspace `tools/smpp-sim` is missing',
      'apps/server/README.md (Layout): entry of src/ `queue` is missing',
    ]);
  });

  it('reads sections and tables as markdown has them', () => {
    const text = '# T\n## A\n| x | y |\n| - | - |\n| `a` | 1 |\n### A.1\nin A\n## B\nnot in A\n';
    assert.equal(section(text, 'A'), '| x | y |\n| - | - |\n| `a` | 1 |\n### A.1\nin A');
    assert.deepEqual(tableRows(section(text, 'A')), [['`a`', '1']]);
    assert.equal(section(text, 'C'), '');
  });
});
