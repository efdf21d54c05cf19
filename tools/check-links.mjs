// Checks that the repository's own references resolve, so the docs stay part of the repository:
//   - every relative markdown link `[text](path#anchor)` in a .md file (path from the file's folder;
//     `#anchor` alone is a heading of the same file);
//   - every `docs/<name>.md#anchor` reference in a .ts, .tsx, .mjs, .cjs or .md file (from the root).
// Anchors are GitHub's heading slugs. URLs (http:, https:, mailto:, any scheme) are not checked.
// Files: git's tracked and untracked-but-not-ignored files, else a walk without node_modules.
// Run by `npm run lint`: `node tools/check-links.mjs` prints each broken reference and exits 1.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = /\.(ts|tsx|mjs|cjs|md)$/;
const SKIP_DIRS = new Set(['node_modules', '.git', 'dist', 'data', 'test-results']);

/** GitHub's anchor for a heading text: lower case, punctuation dropped, spaces to hyphens. */
export function slug(heading) {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** The text without fenced code blocks (kept as blank lines, so line numbers stay right). */
function withoutFences(text) {
  let fence = null;
  return text
    .split('\n')
    .map((line) => {
      const m = line.match(/^\s*(`{3,}|~{3,})/);
      if (m && (fence === null || m[1][0] === fence[0])) {
        fence = fence === null ? m[1] : null;
        return '';
      }
      return fence === null ? line : '';
    })
    .join('\n');
}

/** The anchors of a markdown text's headings, numbered as GitHub numbers repeats (-1, -2, …). */
export function anchorsOf(markdown) {
  const seen = new Map();
  const anchors = new Set();
  for (const line of withoutFences(markdown).split('\n')) {
    const m = line.match(/^ {0,3}#{1,6}\s+(.*?)\s*#*\s*$/);
    if (!m) continue;
    const text = m[1]
      .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/<[^>]+>/g, '')
      .replace(/[`*]/g, '');
    const base = slug(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** Relative markdown links of a text (outside code): [{target, line}]. */
function markdownLinks(markdown) {
  const links = [];
  withoutFences(markdown)
    .split('\n')
    .forEach((raw, i) => {
      const line = raw.replace(/`[^`]*`/g, (s) => ' '.repeat(s.length));
      for (const m of line.matchAll(/\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        links.push({ target: m[1], line: i + 1 });
      }
    });
  return links;
}

/** `docs/<name>.md` references of any text: [{target, line}] (targets from the repository root). */
function docsReferences(text) {
  const refs = [];
  text.split('\n').forEach((line, i) => {
    for (const m of line.matchAll(/(?<![\w./-])docs\/[\w.-]+\.md(?:#[\w-]+)?/g)) {
      refs.push({ target: m[0], line: i + 1 });
    }
  });
  return refs;
}

/** The files to scan (paths relative to root). */
export function listFiles(root) {
  try {
    const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'ignore'],
    });
    return out
      .split('\0')
      .filter((f) => SOURCE.test(f) && !f.split('/').includes('node_modules') && existsSync(join(root, f)));
  } catch {
    const files = [];
    const walk = (dir) => {
      for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
        const rel = dir ? `${dir}/${e.name}` : e.name;
        if (e.isDirectory()) {
          if (!SKIP_DIRS.has(e.name)) walk(rel);
        } else if (SOURCE.test(e.name)) {
          files.push(rel);
        }
      }
    };
    walk('');
    return files;
  }
}

/**
 * Every broken reference in `files` (relative to `root`): [{file, line, target, problem}].
 * `files` defaults to listFiles(root).
 */
export function checkLinks(root, files = listFiles(root)) {
  const problems = [];
  const anchorCache = new Map();
  const anchorsOfFile = (abs) => {
    if (!anchorCache.has(abs)) anchorCache.set(abs, anchorsOf(readFileSync(abs, 'utf8')));
    return anchorCache.get(abs);
  };
  const seen = new Set();
  const check = (file, line, target, base) => {
    // A markdown link to docs/… is also a docs reference: check it once.
    const key = `${file}:${line}:${target}`;
    if (seen.has(key)) return;
    seen.add(key);
    const hash = target.indexOf('#');
    const path = decodeURIComponent((hash < 0 ? target : target.slice(0, hash)).replace(/\?.*$/, ''));
    const anchor = hash < 0 ? '' : target.slice(hash + 1);
    const abs = path === '' ? join(root, file) : resolve(base, path);
    if (!abs.startsWith(resolve(root) + sep) && abs !== resolve(root)) {
      problems.push({ file, line, target, problem: 'points outside the repository' });
    } else if (!existsSync(abs)) {
      problems.push({ file, line, target, problem: 'no such file' });
    } else if (anchor && /\.md$/i.test(abs) && statSync(abs).isFile()) {
      if (!anchorsOfFile(abs).has(decodeURIComponent(anchor).toLowerCase())) {
        problems.push({ file, line, target, problem: `no heading #${anchor}` });
      }
    }
  };
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    if (file.endsWith('.md')) {
      for (const { target, line } of markdownLinks(text)) {
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // http:, https:, mailto:, …
        check(file, line, target, join(root, dirname(file)));
      }
    }
    for (const { target, line } of docsReferences(text)) check(file, line, target, root);
  }
  return problems;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const files = listFiles(root);
  const problems = checkLinks(root, files);
  for (const p of problems) console.error(`${p.file}:${p.line}: ${p.target}: ${p.problem}`);
  if (problems.length > 0) {
    console.error(`check-links: ${problems.length} broken reference(s)`);
    process.exit(1);
  }
  console.log(`check-links: ${files.length} files, every relative link and docs reference resolves`);
}
