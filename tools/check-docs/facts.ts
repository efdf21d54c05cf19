// The facts the docs describe, read from the code itself: the server's modules (names, tables, jobs),
// the web router's paths with their page folders, the endpoints each page folder calls, the
// top-level layout of the workspaces. tools/check-docs/check.ts holds the docs against them.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { endpoints as areas } from '@simdock/contract';
import { MODULES } from '@simdock/server/testing';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface ModuleFact {
  name: string;
  tables: string[];
  jobs: string[];
}

export interface RouteFact {
  /** As the router declares it: `dashboard`, `details/:id`, `*`. */
  path: string;
  /** The page folder its component comes from (`pages/<folder>/`). */
  folder: string;
}

export interface Facts {
  modules: ModuleFact[];
  routes: RouteFact[];
  /** Every folder under apps/web/src/pages. */
  pageFolders: string[];
  /** Page folder → the endpoints its files (and the shared `api/` files they import) call: `POST /api/Order/create`. */
  pageEndpoints: Record<string, string[]>;
  /** The web's shared folders: every folder directly under apps/web/src but `app`, `pages` and `test`. */
  webShared: string[];
  /** Top-level entries of each documented tree: `apps/server/src` → `config.ts`, `db`, … */
  layout: Record<string, string[]>;
  /** The npm workspaces' folders (`packages/contract`, `tools/gateway-sim`, `e2e`, …). */
  workspaces: string[];
}

export function moduleFacts(): ModuleFact[] {
  return MODULES.map((m) => ({
    name: m.name,
    tables: [...m.tables],
    jobs: (m.jobs ?? []).map((j) => j.name),
  }));
}

/** The router's `path: '…'` entries, each with the page folder of the nearest `pages/<folder>/` import after it. */
export function routeFacts(routerSource: string): RouteFact[] {
  const routes: RouteFact[] = [];
  for (const m of routerSource.matchAll(/\bpath: '([^']+)'/g)) {
    const after = routerSource.slice(m.index);
    const page = /pages\/([a-z-]+)\//.exec(after);
    routes.push({ path: m[1]!, folder: page?.[1] ?? '' });
  }
  return routes;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true })
    .map(String)
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => join(dir, f));
}

/** Source without comments: a doc example naming an endpoint is not a call. */
const code = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** A file's top-level declarations by name (`export const x = …` up to the next top-level one). */
function declarations(text: string): Map<string, string> {
  const decls = new Map<string, string>();
  const starts = [...text.matchAll(/^(?:export )?(?:async )?(?:const|function|let|class) (\w+)/gm)];
  for (const [i, m] of starts.entries())
    decls.set(m[1]!, text.slice(m.index, starts[i + 1]?.index ?? text.length));
  return decls;
}

/** The text of the declarations `names` use in `text`, following the file's own references. */
function usedText(text: string, names: string[]): string {
  const decls = declarations(text);
  const seen = new Set<string>();
  const queue = [...names];
  let out = '';
  while (queue.length) {
    const name = queue.pop()!;
    const body = decls.get(name);
    if (seen.has(name) || body === undefined) continue;
    seen.add(name);
    out += body;
    const live = code(body);
    for (const other of decls.keys())
      if (!seen.has(other) && new RegExp(`\\b${other}\\b`).test(live)) queue.push(other);
  }
  return out;
}

/** The endpoints `files` call, with those of what they import from the shared `api/` files. */
function endpointsOf(files: string[]): string[] {
  const described = describeEndpoints();
  const refs = (text: string) =>
    [...code(text).matchAll(/\bendpoints\.(\w+)\.(\w+)/g)].map((m) => described.get(`${m[1]}.${m[2]}`) ?? '');
  const found = new Set<string>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const e of refs(text)) found.add(e);
    for (const imp of text.matchAll(
      /import (?:type )?\{([^}]*)\} from '((?:\.\.?\/)+api\/[\w-]+)(?:\.tsx?)?'/g,
    )) {
      const names = imp[1]!.split(',').map((n) =>
        n
          .trim()
          .split(/\s+as\s+/)[0]!
          .replace(/^type /, ''),
      );
      const target = resolve(dirname(file), imp[2]!);
      const path = [`${target}.ts`, `${target}.tsx`, target].find(
        (p) => existsSync(p) && statSync(p).isFile(),
      );
      if (path) for (const e of refs(usedText(readFileSync(path, 'utf8'), names))) found.add(e);
    }
  }
  found.delete('');
  return [...found].sort();
}

/**
 * The shell's folders: `app/` and the state it runs for every signed-in screen, which pages read from
 * below (`session/`: user info; `live/`: the live stream and what it refreshes).
 */
const SHELL_FOLDERS = ['app', 'session', 'live'];

/**
 * Page folder → the endpoints it calls. The shell's calls (user info, the live stream, the unread
 * count…) are documented once, on the Shell's row, so a page does not repeat them.
 */
export function pageEndpointFacts(webSrc: string): Record<string, string[]> {
  const shell = endpointsOf(SHELL_FOLDERS.flatMap((f) => filesUnder(join(webSrc, f))));
  const out: Record<string, string[]> = { [SHELL]: shell };
  for (const folder of readdirSync(join(webSrc, 'pages')))
    out[folder] = endpointsOf(filesUnder(join(webSrc, 'pages', folder))).filter((e) => !shell.includes(e));
  return out;
}

/** The Shell's key in `pageEndpoints` (its row's folder in docs/screens.md). */
export const SHELL = 'apps/web/src/app/';

/** `area.name` → `POST /api/Order/create` for every declaration of the contract. */
function describeEndpoints(): Map<string, string> {
  const map = new Map<string, string>();
  for (const [area, decls] of Object.entries(areas)) {
    for (const [name, d] of Object.entries(
      decls as Record<string, { method: string | string[]; path: string }>,
    )) {
      const method = Array.isArray(d.method) ? d.method[0] : d.method;
      map.set(`${area}.${name}`, `${method} ${d.path}`);
    }
  }
  return map;
}

function topLevel(dir: string): string[] {
  return readdirSync(dir)
    .filter((f) => !/\.test\.tsx?$/.test(f) && !f.startsWith('.'))
    .sort();
}

export function readFacts(root = ROOT): Facts {
  const webSrc = join(root, 'apps/web/src');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] };
  const workspaces = pkg.workspaces.flatMap((w) =>
    w.endsWith('/*')
      ? readdirSync(join(root, w.slice(0, -2)))
          .filter((d) => existsSync(join(root, w.slice(0, -2), d, 'package.json')))
          .map((d) => `${w.slice(0, -2)}/${d}`)
      : [w],
  );
  return {
    modules: moduleFacts(),
    routes: routeFacts(readFileSync(join(webSrc, 'app/router.tsx'), 'utf8')),
    pageFolders: readdirSync(join(webSrc, 'pages')).sort(),
    pageEndpoints: pageEndpointFacts(webSrc),
    webShared: readdirSync(webSrc, { withFileTypes: true })
      .filter((e) => e.isDirectory() && !['app', 'pages', 'test'].includes(e.name))
      .map((e) => e.name)
      .sort(),
    layout: {
      'apps/server/src': topLevel(join(root, 'apps/server/src')),
      'apps/web/src': topLevel(webSrc),
    },
    workspaces: workspaces.map((w) => relative(root, join(root, w))).sort(),
  };
}
