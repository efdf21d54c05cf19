// The command-line plumbing of a simulator: typed options (numbers checked), "is this file the
// entry point?", and running until SIGINT/SIGTERM.
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/** An option's kind: a number is checked and converted; `strings` may be given more than once. */
export type OptionKind = 'string' | 'number' | 'boolean' | 'strings';

export type OptionValues<S extends Record<string, OptionKind>> = {
  [K in keyof S]?: S[K] extends 'number'
    ? number
    : S[K] extends 'boolean'
      ? boolean
      : S[K] extends 'strings'
        ? string[]
        : string;
} & { help?: boolean };

/**
 * Parses `--name value` options strictly (an unknown option throws), plus `--help`/`-h`. A number
 * must be finite, and with `nonNegative` at least 0; the error names the option.
 */
export function parseOptions<S extends Record<string, OptionKind>>(
  argv: string[],
  spec: S,
  opts: { nonNegative?: boolean } = {},
): OptionValues<S> {
  const options: Record<string, { type: 'string' | 'boolean'; multiple?: boolean; short?: string }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const [name, kind] of Object.entries(spec)) {
    options[name] =
      kind === 'boolean' ? { type: 'boolean' } : { type: 'string', multiple: kind === 'strings' };
  }
  const { values } = parseArgs({ args: argv, strict: true, options });
  const out: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(values)) {
    if (spec[name] !== 'number' || typeof v !== 'string') {
      out[name] = v;
      continue;
    }
    const n = Number(v);
    if (!Number.isFinite(n) || (opts.nonNegative && n < 0)) {
      throw new Error(`--${name} must be a ${opts.nonNegative ? 'non-negative ' : ''}number`);
    }
    out[name] = n;
  }
  return out as OptionValues<S>;
}

/** True when the module at `moduleUrl` (its import.meta.url) is the script node was started with. */
export function isMain(moduleUrl: string): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}

/**
 * Starts a simulator from the command line and stops it on SIGINT/SIGTERM. A start that fails prints
 * its message and the usage and exits 2; one that resolves to null (e.g. `--help`) leaves at once.
 */
export function runCli(
  start: (argv: string[]) => Promise<{ stop(): Promise<void> } | null>,
  usage: string,
): void {
  start(process.argv.slice(2)).then(
    (sim) => {
      if (!sim) return;
      const shutdown = () => void sim.stop().then(() => process.exit(0));
      process.once('SIGINT', shutdown);
      process.once('SIGTERM', shutdown);
    },
    (err: unknown) => {
      console.error(err instanceof Error ? err.message : err);
      console.error(usage);
      process.exit(2);
    },
  );
}
