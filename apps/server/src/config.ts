import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';

// Settings are declared by the part of the server that reads them: the kernel's here, each module's
// in its own `<name>.config.ts`, named in its descriptor. settings.ts (above every module) composes
// them into the one schema parsed at start; the kernel imports no module, so it only knows its own.

/** `true`/`false`, `1`/`0`, `yes`/`no`, as settings write a switch. */
export const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

type Env = Record<string, string | undefined>;
type Parsed<S extends z.ZodRawShape> = z.output<z.ZodObject<S>>;

/** The settings the kernel and the process read (HTTP, database, mail, demo, logs). */
const KERNEL_SHAPE = {
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  // Read by the process (main.ts prints it, server.ts creates the admin), not only by auth.
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  PUBLIC_URL: z.url('must be a URL such as http://203.0.113.5:3000').optional(),
  // The catalogue's two limits are the rental catalogue's, but http/address-limit.ts applies them.
  /**
   * Calls of the public catalogue (`Service/getall`) one client address may make per minute, per
   * server process; beyond it a 429 with Retry-After. 0 = no limit.
   */
  CATALOGUE_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(0).max(1_000_000).default(120),
  /**
   * Milliseconds a refused catalogue call waits before its 429: a caller looping on refusals then
   * costs the server one answer per connection and delay instead of thousands a second, CPU the
   * device pushes and rentals need. 0 = answered at once.
   */
  CATALOGUE_REFUSAL_DELAY_MS: z.coerce.number().int().min(0).max(10_000).default(1000),
  /**
   * PostgreSQL connections per process for heavy reads (the catalogue's availability, admin counts),
   * apart from the 10 of everything else, so they cannot take the OTP path's connections.
   */
  DATABASE_HEAVY_POOL_SIZE: z.coerce.number().int().min(1).max(50).default(2),
  /** Behind a reverse proxy: take the client address from X-Forwarded-For (else it could be forged). */
  TRUST_PROXY: bool.default(false),
  DEMO: bool.optional(),
  DEMO_GATEWAY_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  /**
   * Outgoing mail (password recovery): `smtp://user:pass@host:587` (STARTTLS when offered) or
   * `smtps://user:pass@host:465` (TLS from the start). Unset: no mail is sent (see mail/).
   */
  SMTP_URL: z
    .url({
      protocol: /^smtps?$/,
      hostname: /./,
      error: 'must be a URL such as smtp://user:pass@mail.example.com:587 or smtps://…',
    })
    .optional(),
  /** The sender of every mail: `SimDock <no-reply@example.com>` or a bare address. */
  MAIL_FROM: z
    .string()
    .max(200)
    .regex(
      /^(?:[^<>]*<[^\s<>@]+@[^\s<>@]+>|[^\s<>@]+@[^\s<>@]+)$/,
      'must be an address such as SimDock <no-reply@example.com>',
    )
    .default('SimDock <no-reply@simdock.local>'),
  // Read by mail/ and by auth's recovery: kept here, below both.
  /** What the forgot-password page says when no mail can be sent. */
  SUPPORT_CONTACT: z.string().min(1).max(300).default('Ask your administrator to reset your password.'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** `json` lines for collectors, `pretty` for people; `auto`: pretty when stdout is a terminal. */
  LOG_FORMAT: z.enum(['auto', 'json', 'pretty']).default('auto'),
  WEB_DIST: z.string().optional(),
};

type KernelRaw = Parsed<typeof KERNEL_SHAPE>;

/**
 * Settings one part of the server declares: their schema, rules across settings (checked on the raw
 * values so they are listed with every other problem) and defaults that depend on the kernel's
 * settings (NODE_ENV), applied once everything parsed.
 */
export interface ConfigFragment<S extends z.ZodRawShape = z.ZodRawShape, R extends object = object> {
  shape: S;
  problems?(env: Env): string[];
  resolve?(own: Parsed<S>, kernel: KernelRaw): R;
}

/** Names the types of a fragment from its literal. */
export function defineConfig<S extends z.ZodRawShape, R extends object = object>(
  fragment: ConfigFragment<S, R>,
): ConfigFragment<S, R> {
  return fragment;
}

/** Who declares settings: the kernel, or a module's descriptor (its `name` and `config`). */
export interface ConfigOwner {
  readonly name: string;
  readonly config?: ConfigFragment;
}

type FragmentOf<O> = O extends { readonly config: infer F } ? F : never;
type SettingsOf<F> = F extends ConfigFragment<infer S, infer R> ? Omit<Parsed<S>, keyof R> & R : never;
type Intersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type Flat<T> = { [K in keyof T]: T[K] };
/** The settings every owner in `O` declares, as the server reads them (`ctx.config`). */
export type ConfigOf<O extends readonly ConfigOwner[]> = Flat<
  Intersection<SettingsOf<FragmentOf<O[number]>>>
>;

/** The kernel's settings; a module's come from its `config` fragment. */
export const KERNEL_CONFIG = defineConfig({
  shape: KERNEL_SHAPE,
  problems: (env) => {
    const problems: string[] = [];
    if (env.NODE_ENV === 'production' && !env.APP_SECRET) {
      problems.push('APP_SECRET: is required when NODE_ENV=production');
    }
    if (env.NODE_ENV === 'production' && ['true', '1', 'yes'].includes(env.DEMO ?? '')) {
      problems.push('DEMO: the demo never runs with NODE_ENV=production');
    }
    return problems;
  },
  resolve: (c) => {
    const dataDir = resolve(c.DATA_DIR);
    return {
      DATA_DIR: dataDir,
      APP_SECRET: c.APP_SECRET ?? persistedSecret(dataDir),
      PUBLIC_URL: (c.PUBLIC_URL ?? `http://127.0.0.1:${c.PORT}`).replace(/\/$/, ''),
      // The demo runs by default on the embedded database outside production.
      DEMO: c.DEMO ?? (c.NODE_ENV === 'development' && !c.DATABASE_URL),
    };
  },
});

/** What the kernel reads of the settings; the full set is settings.ts's `Config`. */
export type KernelConfig = ConfigOf<[{ name: 'kernel'; config: typeof KERNEL_CONFIG }]>;

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

/**
 * Merges the owners' fragments into one schema. A setting declared twice throws here, when the server
 * starts: one owner silently overriding another's validation or default would go unnoticed.
 */
export function composeConfig<const O extends readonly ConfigOwner[]>(owners: O) {
  const shape: Record<string, z.core.$ZodType> = {};
  const ownerOf = new Map<string, string>();
  const fragments = owners.flatMap((o) => (o.config ? [o.config] : []));
  for (const owner of owners) {
    for (const [key, schema] of Object.entries(owner.config?.shape ?? {})) {
      const first = ownerOf.get(key);
      if (first) throw new Error(`Setting ${key} is declared twice: by ${first} and by ${owner.name}`);
      ownerOf.set(key, owner.name);
      shape[key] = schema;
    }
  }
  const schema = z.object(shape);
  return {
    schema,
    /** Parses the environment; a bad value throws a ConfigError listing every problem. */
    load(env: NodeJS.ProcessEnv = process.env): ConfigOf<O> {
      const given = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
      const parsed = schema.safeParse(given);
      const problems = [
        ...(parsed.success
          ? []
          : parsed.error.issues.map((i) => `${i.path.join('.') || 'env'}: ${i.message}`)),
        ...fragments.flatMap((f) => f.problems?.(given) ?? []),
      ];
      if (!parsed.success || problems.length) throw new ConfigError(problems);
      const all = parsed.data;
      // Every fragment's shape is in the schema, so the parsed object holds each one's values.
      const kernel = all as KernelRaw;
      const resolved = fragments.map((f) => f.resolve?.(all, kernel) ?? {});
      return Object.assign({ ...all }, ...resolved) as ConfigOf<O>;
    },
  };
}

/** Outside production a secret is generated once and kept in the data directory. */
function persistedSecret(dataDir: string): string {
  const file = join(dataDir, 'app-secret');
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(32).toString('base64url');
    writeFileSync(file, secret, { mode: 0o600 });
    return secret;
  }
}
