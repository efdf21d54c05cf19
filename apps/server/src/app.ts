import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Clock, systemClock } from './clock.ts';
import { type AppContext, emptyRegistry } from './context.ts';
import type { Db } from './db/db.ts';
import { createHttpApp } from './http/http-app.ts';
import type { DeclaredRoute } from './http/route.ts';
import { registerWebApp } from './http/static.ts';
import type { App } from './http/types.ts';
import { AppMetrics } from './metrics.ts';
import { fillRegistry, registerModules } from './modules/index.ts';
import { Runtime } from './runtime.ts';
import type { Config } from './settings.ts';

// The composition: one server's context, its HTTP app with every module's routes, and the web app.
// server.ts runs it (migrations, workers, listeners, listen); modules/index.ts lists the modules.

export type { App } from './http/types.ts';

const DEFAULT_WEB_DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../../web/dist');

export interface ServerParts {
  app: App;
  ctx: AppContext;
  /** Every API route with the access it declared. */
  routes: DeclaredRoute[];
}

export interface ServerOptions {
  config: Config;
  db: Db;
  clock?: Clock;
  /** Where JSON log lines go (tests capture them); stdout by default. */
  logStream?: { write(line: string): void };
}

export async function createServer(opts: ServerOptions): Promise<ServerParts> {
  const { config, db } = opts;
  const metrics = new AppMetrics();
  const webDist = config.WEB_DIST ? resolve(config.WEB_DIST) : DEFAULT_WEB_DIST;
  const { app, routes } = await createHttpApp({ config, db, metrics, webDist, logStream: opts.logStream });
  const ctx: AppContext = {
    config,
    db,
    clock: opts.clock ?? systemClock,
    log: app.log,
    metrics,
    registry: emptyRegistry(),
    runtime: new Runtime(),
  };
  fillRegistry(ctx);
  await registerModules(app, ctx);
  await registerWebApp(app, webDist);
  return { app, ctx, routes };
}
