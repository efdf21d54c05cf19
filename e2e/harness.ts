import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { type Db, type RunningServer, startServer } from '@simdock/server';
import { openTestDb, requestJson, testConfig } from '@simdock/server/testing';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';

/**
 * Browser-test harness: the REAL server (in this process, on a random port, a fresh PGlite database)
 * serving the BUILT web app, driven by Debian Chromium through playwright-core.
 *
 *   let e: E2E;
 *   beforeAll(async () => { e = await startE2E(); });
 *   afterAll(() => e?.close());
 *   it('…', async () => {
 *     const user = await e.createUser();              // registered through the API
 *     const page = await e.newPage();                 // own context: own localStorage
 *     await loginViaUi(page, user);
 *     await expect.poll(() => page.url()).toMatch(/\/dashboard$/);
 *   });
 *
 * `npm test` builds the web app first; run `npm run build` before running these tests directly.
 */

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The built app; E2E_WEB_DIST lets parallel work build elsewhere (vite build --outDir …). */
export const WEB_DIST = process.env.E2E_WEB_DIST
  ? resolve(process.env.E2E_WEB_DIST)
  : join(ROOT, 'apps/web/dist');
/**
 * The browser: Debian's Chromium headless shell (package chromium-headless-shell), the same engine
 * without the desktop browser around it, as Playwright itself runs headless tests. The browser tests
 * took 28% less time in it than in the full /usr/bin/chromium (the wall and CPU time of four files,
 * three runs each). CHROMIUM_PATH picks another build (e.g. /usr/bin/chromium).
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell';
/** Where tests write screenshots for a look (gitignored): test-results/screens/ at the repo root. */
export const SHOTS_DIR = process.env.E2E_SHOTS_DIR ?? join(ROOT, 'test-results/screens');

/** A number as the web app shows it (apps/web/src/lib/format.ts formatPhone): 13105551023 → +1 310-555-1023. */
export const shownPhone = (digits: string) => digits.replace(/^1(\d{3})(\d{3})(\d{4})$/, '+1 $1-$2-$3');

/** The admin account the server creates on first start (ADMIN_PASSWORD below). */
export const ADMIN = { username: 'admin', password: 'admin-password-1' } as const;

export interface TestUser {
  id: string;
  username: string;
  email: string;
  password: string;
}

export interface E2E {
  /** http://127.0.0.1:<port> */
  url: string;
  server: RunningServer;
  db: Db;
  browser: Browser;
  /** Server log lines (JSON), for debugging a failure. */
  logs: string[];
  /** A page in a fresh context (own storage). Default viewport 1280×800. */
  newPage(opts?: { viewport?: { width: number; height: number } }): Promise<Page>;
  /** A fresh context, for several tabs sharing one localStorage (context.newPage()). */
  newContext(opts?: {
    viewport?: { width: number; height: number };
    reducedMotion?: 'reduce' | 'no-preference';
  }): Promise<BrowserContext>;
  /** POST JSON to the server; returns status and parsed body. */
  api<T = Record<string, unknown>>(
    path: string,
    body?: unknown,
    token?: string,
    headers?: Record<string, string>,
  ): Promise<{ status: number; body: T }>;
  /** A fresh re-authentication of a signed-in user: the header the guarded calls need. */
  reauth(token: string, password: string): Promise<Record<string, string>>;
  /**
   * Registers a user through POST /api/Auth/register; `roles` and `balance` are then set in the
   * database (there is no API for that yet). Unique username by default.
   */
  createUser(opts?: {
    username?: string;
    password?: string;
    roles?: string[];
    balance?: number;
  }): Promise<TestUser>;
  /** A token through POST /api/Auth/login. */
  token(username: string, password: string): Promise<string>;
  /**
   * An outage: stops the server (open streams end, new connections are refused) and returns the
   * function that starts it again on the same port and database, as a restart does.
   */
  stopServer(): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Chromium flags for the browser tests (also used by the multi-process test). */
export const LAUNCH_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

let seq = 0;

export async function startE2E(opts: { workers?: boolean; env?: Record<string, string> } = {}): Promise<E2E> {
  if (!existsSync(join(WEB_DIST, 'index.html'))) {
    throw new Error(
      `The built web app is missing (${WEB_DIST}/index.html). Run "npm run build" first (npm test does it).`,
    );
  }
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium not found at ${CHROMIUM}. Install it with "apt-get install -y chromium-headless-shell" (or set CHROMIUM_PATH).`,
    );
  }
  mkdirSync(SHOTS_DIR, { recursive: true });

  const logs: string[] = [];
  // PGlite, copied from a migrated template (built once for all test files): the server finds every
  // migration applied.
  const testDb = await openTestDb({ migrated: true });
  const db = testDb.db;
  const config = testConfig({ ADMIN_PASSWORD: ADMIN.password, WEB_DIST, LOG_LEVEL: 'info', ...opts.env });
  const logStream = { write: (line: string) => void logs.push(line) };
  let server = await startServer({ config, db, workers: opts.workers ?? false, logStream });
  let stopped = false;
  server.ctx.config.PUBLIC_URL = server.url;
  const url = server.url;

  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: LAUNCH_ARGS });
  } catch (err) {
    await server.stop();
    await testDb.drop();
    throw err;
  }

  const contexts: BrowserContext[] = [];
  const newContext: E2E['newContext'] = async (o = {}) => {
    const ctx = await browser.newContext({
      baseURL: url,
      viewport: o.viewport ?? { width: 1280, height: 800 },
      // As a visitor who asked for less motion: no transitions to wait out before a page is settled
      // (apps/web/src/index.css); e2e/a11y.test.ts checks both settings.
      reducedMotion: o.reducedMotion ?? 'reduce',
    });
    ctx.setDefaultTimeout(10_000);
    await guardContext(ctx);
    contexts.push(ctx);
    return ctx;
  };

  const api = <T>(path: string, body?: unknown, token?: string, headers?: Record<string, string>) =>
    requestJson<T>(url, 'POST', path, body ?? {}, token, headers);

  async function token(username: string, password: string) {
    const res = await api<{ token?: string }>('/api/Auth/login', { username, password });
    if (res.status !== 200 || !res.body.token)
      throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.token;
  }

  return {
    url,
    get server() {
      return server;
    },
    db,
    browser,
    async reauth(token: string, password: string) {
      const res = await api<{ reauth: string }>('/api/Auth/reauth', { password }, token);
      if (res.status !== 200) throw new Error(`reauth failed: ${res.status} ${JSON.stringify(res.body)}`);
      return { 'x-reauth': res.body.reauth };
    },
    logs,
    newContext,
    async newPage(o) {
      return (await newContext(o)).newPage();
    },
    api,
    token,
    async createUser(o = {}) {
      seq += 1;
      const username = o.username ?? `e2e${process.pid % 10000}u${seq}`;
      const password = o.password ?? 'password-123';
      const email = `${username}@example.com`;
      const res = await api('/api/Auth/register', { username, email, passwordHash: password });
      if (res.status !== 200) throw new Error(`register failed: ${res.status} ${JSON.stringify(res.body)}`);
      const [row] = await db.query<{ id: string }>('SELECT id FROM users WHERE username = $1', [username]);
      const id = row!.id;
      if (o.roles) await db.query('UPDATE users SET roles = $2 WHERE id = $1', [id, o.roles]);
      if (o.balance) {
        await db.tx(async (q) => {
          const [after] = await q.query<{ balance: string }>(
            'UPDATE users SET balance = balance + $2::numeric WHERE id = $1 RETURNING balance::text AS balance',
            [id, String(o.balance)],
          );
          await q.query(
            `INSERT INTO ledger (user_id, amount, kind, balance_after)
             VALUES ($1, $2::numeric, 'admin_adjustment', $3::numeric)`,
            [id, String(o.balance), after!.balance],
          );
        });
      }
      return { id, username, email, password };
    },
    async stopServer() {
      await server.stop();
      stopped = true;
      return async () => {
        const port = Number(new URL(url).port);
        server = await startServer({
          config: { ...config, PORT: port },
          db,
          workers: opts.workers ?? false,
          logStream,
        });
        server.ctx.config.PUBLIC_URL = url;
        stopped = false;
      };
    },
    async close() {
      for (const c of contexts) await c.close().catch(() => {});
      await browser.close().catch(() => {});
      if (!stopped) await server.stop();
      await testDb.drop();
    },
  };
}

/**
 * What went wrong in the browser since the last check, in any page of any context the harness made:
 * console errors, uncaught errors and Content-Security-Policy violations (the `securitypolicyviolation`
 * event, which fires even when the refused call's error is caught). e2e/setup.ts fails every test
 * that leaves one (assertNoBrowserProblems after each test).
 */
const browserProblems: string[] = [];
/** Console errors the current test provokes on purpose (allowConsoleError); cleared after each test. */
const allowedConsole: RegExp[] = [];

/**
 * The browser's network log ("Failed to load resource: … status of 401", "… net::ERR_CONNECTION_REFUSED")
 * is not the app's error: tests provoke refused calls and outages on purpose, and the app says so on
 * the page. A resource refused by the CSP is still caught (its own message and the violation event).
 */
const NETWORK_LOG = /^Failed to load resource: /;

async function guardContext(ctx: BrowserContext): Promise<void> {
  await ctx.exposeBinding('__e2eCspViolation', ({ page }, text: string) => {
    browserProblems.push(`securitypolicyviolation on ${page?.url() ?? '?'}: ${text}`);
  });
  // A string: the e2e code is typechecked without the DOM library. Capture: the event is fired at
  // the refused element or the document.
  await ctx.addInitScript(`document.addEventListener('securitypolicyviolation', (e) => {
    window.__e2eCspViolation(e.violatedDirective + ' blocked ' + (e.blockedURI || '(inline)') +
      ' at ' + (e.sourceFile || '?') + ':' + e.lineNumber);
  }, true);`);
  ctx.on('page', (page) => {
    page.on('console', (m) => {
      if (m.type() !== 'error' || NETWORK_LOG.test(m.text())) return;
      if (allowedConsole.some((re) => re.test(m.text()))) return;
      browserProblems.push(`console error on ${page.url()}: ${m.text()}`);
    });
    page.on('pageerror', (err) => browserProblems.push(`uncaught error on ${page.url()}: ${err.message}`));
  });
}

/** Lets the current test provoke console errors matching `pattern` (the guard forgets it after the test). */
export function allowConsoleError(pattern: RegExp): void {
  allowedConsole.push(pattern);
}

/** Forgets the console errors allowed so far (e2e/setup.ts, after each test). */
export function clearAllowedConsoleErrors(): void {
  allowedConsole.length = 0;
}

/**
 * Throws, listing them, if any page had a console error, an uncaught error or a CSP violation since
 * the last call, and forgets them. e2e/setup.ts runs it after each test.
 */
export function assertNoBrowserProblems(): void {
  const problems = browserProblems.splice(0);
  if (problems.length) throw new Error(`The browser reported:\n${problems.join('\n')}`);
}

/** Signs in through the login form and waits for the home screen (Dashboard; Overview for Admin9). */
export async function loginViaUi(page: Page, user: { username: string; password: string }): Promise<void> {
  await page.goto('/login');
  await page.getByLabel('Username').fill(user.username);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await page.waitForURL(/\/(dashboard|admin)$/);
  await page.getByRole('heading', { level: 1, name: /^(Dashboard|Overview)$/ }).waitFor();
}

/** Signs in without the form: stores a token from the API before the app starts. */
/** Signs in as the admin and opens Gateway Manager from the main navigation. */
export async function openGatewayManager(page: Page): Promise<void> {
  await loginViaUi(page, ADMIN);
  await page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('link', { name: 'Gateway Manager' })
    .click();
  await page.waitForURL('**/gatewaymanager');
  await page.getByRole('heading', { level: 1, name: 'Gateway Manager' }).waitFor();
}

export async function loginWithToken(page: Page, e: E2E, user: { username: string; password: string }) {
  const token = await e.token(user.username, user.password);
  // Any page of the origin holds its storage: the health check, not the app (a load of the app
  // costs the browser about half a second of CPU, and the test's next step loads it anyway).
  await page.goto('/healthz');
  // A string expression: the e2e code is typechecked without the DOM library.
  await page.evaluate(`localStorage.setItem('jwtToken', ${JSON.stringify(token)})`);
}

/** Whether screenshots are written (E2E_SHOTS=off, as in CI, turns them off). */
export const SHOTS_ON = process.env.E2E_SHOTS !== 'off';

/** Saves a full-page screenshot under SHOTS_DIR and returns its path (nothing when SHOTS_ON is false). */
export async function shot(page: Page, name: string): Promise<string> {
  const path = join(SHOTS_DIR, `${name}.png`);
  if (!SHOTS_ON) return path;
  await page.screenshot({ path, fullPage: true });
  return path;
}

/** Collects uncaught page errors; a test asserts the list stays empty. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  return errors;
}

/**
 * Waits until a page is ready to be looked at: no skeleton (".animate-pulse") left, fonts loaded,
 * every finite animation or transition finished and two frames painted since. Shell pages keep a
 * live stream open, so not "networkidle".
 */
export async function settle(page: Page): Promise<void> {
  await page.locator('.animate-pulse').first().waitFor({ state: 'detached', timeout: 10_000 });
  // A string expression: the e2e code is typechecked without the DOM library.
  await page.evaluate(`document.fonts.ready
    .then(() => Promise.all(document.getAnimations()
      .filter((a) => a.playState === 'running' && a.effect?.getComputedTiming().iterations !== Infinity)
      .map((a) => a.finished.catch(() => {}))))
    .then(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))`);
}

/**
 * Puts the page in a colour scheme and waits until it is applied and the page settled. Without a
 * stored choice the app follows the system's scheme live (apps/web/src/lib/theme.tsx), so one load
 * of a page shows both schemes.
 */
export async function colorScheme(page: Page, scheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme: scheme });
  await page.locator(scheme === 'dark' ? 'html.dark' : 'html:not(.dark)').waitFor({ state: 'attached' });
  await settle(page);
}

/** The axe-core that @axe-core/playwright runs, and the rules the browser tests apply. */
const AXE_SOURCE: string = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'))(
  'axe-core',
).source;
const AXE_TAGS = ['wcag2a', 'wcag2aa'];
type AxeViolation = Awaited<ReturnType<AxeBuilder['analyze']>>['violations'][number];

/**
 * Scans the page as it is now with axe-core (WCAG 2 A and AA rules) and returns its serious and
 * critical findings, one line each ("label: rule (impact) targets"); none is an empty list. axe is
 * put into a document once and run there (axe.run), so several states of one page cost one
 * injection; a page with frames goes through AxeBuilder, which scans every frame.
 */
export async function axeFindings(page: Page, label: string): Promise<string[]> {
  let violations: AxeViolation[];
  if (page.frames().length > 1) {
    violations = (await new AxeBuilder({ page }).withTags(AXE_TAGS).analyze()).violations;
  } else {
    if (!(await page.evaluate('typeof window.axe?.run === "function"'))) await page.evaluate(AXE_SOURCE);
    const options = { runOnly: { type: 'tag', values: AXE_TAGS }, resultTypes: ['violations'] };
    violations = await page.evaluate(
      `axe.run(document, ${JSON.stringify(options)}).then((r) => r.violations)`,
    );
  }
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${label}: ${v.id} (${v.impact}) ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * Answers the shared re-authentication dialog ("Confirm it is you") that a guarded call opens: the
 * password, and `code` when two-factor authentication is on. Waits for it to close (the call is then
 * sent again). A page holds the proof for some minutes: only its first guarded call asks.
 */
export async function answerReauth(page: Page, password: string, code?: string): Promise<void> {
  const dialog = page.getByRole('dialog', { name: 'Confirm it is you' });
  await dialog.waitFor();
  await dialog.getByLabel('Password', { exact: true }).fill(password);
  if (code !== undefined) await dialog.getByLabel('Code from the app, or a recovery code').fill(code);
  await dialog.getByRole('button', { name: 'Confirm' }).click();
  await dialog.waitFor({ state: 'detached' });
}
