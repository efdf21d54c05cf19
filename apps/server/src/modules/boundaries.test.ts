import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { MODULES } from './index.ts';

// The module rule, for SQL: a module's code reads and writes only the tables it owns (its
// descriptor lists them). Imports are checked by dependency-cruiser in `npm run lint`.

const HERE = dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [path] : [];
  });
}

const owner = new Map<string, string>();
for (const m of MODULES) for (const t of m.tables) owner.set(t, m.name);

/** Table names after FROM / JOIN / INTO / UPDATE (SQL keywords are upper case here) (CTE names are filtered by the caller). */
function tablesIn(sql: string): string[] {
  return [...sql.matchAll(/\b(?:FROM|JOIN|INTO|UPDATE)\s+([a-z_][a-z0-9_]*)/g)].map((m) =>
    m[1]!.toLowerCase(),
  );
}

describe('module boundaries in SQL', () => {
  it('gives every table one owner', () => {
    const all = MODULES.flatMap((m) => m.tables);
    expect(new Set(all).size).toBe(all.length);
  });

  it('keeps each module to its own tables (billing alone writes users.balance)', () => {
    const problems: string[] = [];
    for (const m of MODULES) {
      for (const file of sourceFiles(join(HERE, m.name))) {
        const text = readFileSync(file, 'utf8');
        const ctes = new Set([...text.matchAll(/\b([a-z_]+)\s+AS\s*\(/gi)].map((x) => x[1]!.toLowerCase()));
        for (const table of tablesIn(text)) {
          const by = owner.get(table);
          if (!by || by === m.name || ctes.has(table)) continue;
          // Billing owns the balance column of users: it updates it (and reads it) there.
          if (m.name === 'billing' && table === 'users') continue;
          problems.push(`${relative(HERE, file)} uses ${table} (owned by ${by})`);
        }
        if (m.name !== 'billing' && /UPDATE\s+users[\s\S]{0,200}?\bbalance\s*=/i.test(text)) {
          problems.push(`${relative(HERE, file)} writes users.balance`);
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

describe('route handlers', () => {
  // `route()` types the body, query and parameters from the endpoint's declaration (the parsed
  // shapes): a cast would hide a declaration and a handler that disagree.
  it('read the request as the declaration types it, with no cast', () => {
    const casts = sourceFiles(join(HERE, '..')).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .map((line, i) => ({ line, at: `${relative(join(HERE, '..'), file)}:${i + 1}` }))
        .filter(({ line }) => /\breq(uest)?\.(body|query|params)\)?\s+as\s/.test(line))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    expect(casts).toEqual([]);
  });
});
