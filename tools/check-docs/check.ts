// Holds the docs against the code (tools/check-docs/facts.ts): the module table, jobs and tables in
// docs/architecture.md, the module lists and layout blocks of the READMEs, the web's shared folders
// (apps/web/README.md, Layers), the screen map of
// docs/screens.md (routes, page folders, the endpoints each page calls) and the routes of
// docs/product.md. The link checker (tools/check-links.mjs) proves that references resolve; this proves
// that the lists are true. Run by `npm run lint`: prints each disagreement and exits 1.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Facts, ROOT, readFacts, SHELL } from './facts.ts';

/** The documents checked, by path from the repository root. */
export const DOCS = [
  'README.md',
  'apps/server/README.md',
  'apps/web/README.md',
  'docs/architecture.md',
  'docs/screens.md',
  'docs/product.md',
] as const;
export type Docs = Record<(typeof DOCS)[number], string>;

export function readDocs(root = ROOT): Docs {
  return Object.fromEntries(DOCS.map((d) => [d, readFileSync(join(root, d), 'utf8')])) as Docs;
}

/** The lines of the section under `## heading` (up to the next heading of the same or a higher level). */
export function section(text: string, heading: string): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.replace(/^#+\s*/, '') === heading && /^#+\s/.test(l));
  if (start < 0) return '';
  const level = /^#+/.exec(lines[start]!)![0].length;
  const end = lines.findIndex((l, i) => i > start && /^#+\s/.test(l) && /^#+/.exec(l)![0].length <= level);
  return lines.slice(start + 1, end < 0 ? undefined : end).join('\n');
}

/** The rows of the first markdown table in `text`, as cells (header and rule excluded). */
export function tableRows(text: string): string[][] {
  const rows = text
    .split('\n')
    .filter((l) => l.trim().startsWith('|'))
    .map((l) =>
      l
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim()),
    );
  return rows.filter((r, i) => i > 0 && !r.every((c) => /^:?-+:?$/.test(c)));
}

const ticked = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
const firstFence = (text: string) => /```[^\n]*\n([\s\S]*?)```/.exec(text)?.[1] ?? '';

/** Both directions of a list: what the code has that the doc lacks, and what the doc names that the code lacks. */
function compare(where: string, what: string, code: Iterable<string>, doc: Iterable<string>): string[] {
  const has = new Set(doc);
  const real = new Set(code);
  return [
    ...[...real].filter((x) => !has.has(x)).map((x) => `${where}: ${what} \`${x}\` is missing`),
    ...[...has].filter((x) => !real.has(x)).map((x) => `${where}: ${what} \`${x}\` does not exist`),
  ];
}

/** `details/:id` → `/details/{id}` as the docs write routes; `*` → null (documented in words). */
const docRoute = (path: string) => (path === '*' ? null : `/${path.replace(/:(\w+)/g, '{$1}')}`);

/** How a doc may write an endpoint: `POST /api/Order/create`, `/api/Order/create` or `…/create`. */
function endpointForms(endpoint: string): string[] {
  const [method, path] = endpoint.split(' ') as [string, string];
  const written = path.replace(/:(\w+)/g, '<$1>');
  return [`${method} ${written}`, written, `…/${written.split('/').pop()}`];
}

export function docsProblems(facts: Facts, docs: Docs): string[] {
  const problems: string[] = [];
  const moduleNames = facts.modules.map((m) => m.name);

  // docs/architecture.md: the module table (name, tables), the jobs, the workspaces.
  const arch = docs['docs/architecture.md'];
  const moduleRows = tableRows(section(arch, 'Modules'));
  const rowName = (r: string[]) => ticked(r[0] ?? '')[0] ?? r[0] ?? '';
  problems.push(...compare('docs/architecture.md (Modules)', 'module', moduleNames, moduleRows.map(rowName)));
  for (const m of facts.modules) {
    const row = moduleRows.find((r) => rowName(r) === m.name);
    if (!row) continue;
    const tables = ticked(row[2] ?? '');
    problems.push(...compare(`docs/architecture.md (Modules, ${m.name})`, 'table', m.tables, tables));
  }
  const jobsText = section(arch, 'Jobs');
  const jobs = facts.modules.flatMap((m) => m.jobs);
  const namedJobs = ticked(jobsText).filter((t) => /^[a-z]+(?:-[a-z]+)+$/.test(t));
  problems.push(...compare('docs/architecture.md (Jobs)', 'job', jobs, namedJobs));
  const workspaceLines = (block: string) =>
    block
      .split('\n')
      .map((l) => l.trim().split(/\s+/)[0]!.replace(/\/$/, ''))
      .filter(Boolean);
  problems.push(
    ...compare(
      'docs/architecture.md (workspaces)',
      'workspace',
      facts.workspaces,
      workspaceLines(firstFence(arch)),
    ),
  );

  // README.md: the module list in Architecture and its workspace block.
  const readme = section(docs['README.md'], 'Architecture');
  const listed = /`src\/modules\/<domain>\/`:([^)]*(?:\([^)]*\)[^)]*)*)\), each/.exec(readme)?.[1] ?? '';
  const readmeModules = listed
    .replace(/\([^)]*\)/g, '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  problems.push(...compare('README.md (Architecture)', 'module', moduleNames, readmeModules));
  problems.push(
    ...compare(
      'README.md (Architecture)',
      'workspace',
      facts.workspaces,
      workspaceLines(firstFence(readme)).filter((w) => w !== 'docs'),
    ),
  );

  // apps/server/README.md: "Modules today:" and the layout of src/.
  const server = docs['apps/server/README.md'];
  const today = /Modules today:([\s\S]*?)\n\n/.exec(server)?.[1] ?? '';
  const todayNames = ticked(today.replace(/\([^()]*(?:\([^()]*\)[^()]*)*\)/g, ''));
  problems.push(...compare('apps/server/README.md (Modules today)', 'module', moduleNames, todayNames));
  // A layout block: `src/` then one line per entry, indented two spaces: `  name name  what they are`.
  const layoutEntries = (block: string) =>
    block
      .split('\n')
      .filter((l) => /^\s{2}\S/.test(l))
      .flatMap((l) =>
        l
          .trim()
          .split(/\s{2,}/)[0]!
          .split(/\s+/),
      )
      .map((e) => e.replace(/\/.*$/, ''))
      .filter((e) => /^[\w.-]+$/.test(e));
  problems.push(
    ...compare(
      'apps/server/README.md (Layout)',
      'entry of src/',
      facts.layout['apps/server/src'] ?? [],
      layoutEntries(firstFence(section(server, 'Layout'))),
    ),
  );
  const web = docs['apps/web/README.md'];
  problems.push(
    ...compare(
      'apps/web/README.md (layout)',
      'entry of src/',
      facts.layout['apps/web/src'] ?? [],
      layoutEntries(firstFence(web)),
    ),
  );

  // apps/web/README.md (Layers): the shared layer's list names every shared folder (the import rule
  // counts any folder under src/ but app/, pages/ and test/ as shared).
  const sharedItem = /^3\. Shared code:([\s\S]*?)(?=\n\S|$)/m.exec(section(web, 'Layers'))?.[1] ?? '';
  const sharedDoc = ticked(sharedItem)
    .filter((t) => /^[\w-]+\/$/.test(t))
    .map((t) => t.slice(0, -1));
  problems.push(...compare('apps/web/README.md (Layers)', 'shared folder', facts.webShared, sharedDoc));

  // docs/screens.md: every route and page folder has its row; each row lists the endpoints its page calls.
  const screenRows = tableRows(docs['docs/screens.md']);
  const routesDoc = screenRows.flatMap((r) => ticked(r[1] ?? '')).filter((t) => t.startsWith('/'));
  const routesCode = facts.routes.map((r) => docRoute(r.path)).filter((r): r is string => r !== null);
  problems.push(...compare('docs/screens.md', 'route', routesCode, routesDoc));
  if (facts.routes.some((r) => r.path === '*') && !screenRows.some((r) => /any other path/.test(r[1] ?? '')))
    problems.push('docs/screens.md: the not-found route ("any other path") is missing');
  const folderCell = (r: string[]) => ticked(r[2] ?? '');
  problems.push(
    ...compare(
      'docs/screens.md',
      'page folder',
      facts.pageFolders,
      screenRows.flatMap(folderCell).filter((f) => f !== SHELL),
    ),
  );
  for (const [folder, endpoints] of Object.entries(facts.pageEndpoints)) {
    const row = screenRows.find((r) => folderCell(r).includes(folder));
    if (!row) continue;
    const cell = row[3] ?? '';
    for (const e of endpoints)
      if (!endpointForms(e).some((form) => cell.includes(form)))
        problems.push(`docs/screens.md (${folder}): endpoint \`${e}\` that the page calls is missing`);
  }

  // docs/product.md: every route is named under "Screens and routes".
  const productRoutes = section(docs['docs/product.md'], 'Screens and routes');
  for (const route of routesCode)
    if (!productRoutes.includes(`\`${route}\``))
      problems.push(`docs/product.md (Screens and routes): route \`${route}\` is missing`);

  return problems;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const problems = docsProblems(readFacts(), readDocs());
  for (const p of problems) console.error(p);
  if (problems.length) {
    console.error(
      `\n${problems.length} statement(s) in the docs disagree with the code (tools/check-docs/check.ts)`,
    );
    process.exit(1);
  }
}
