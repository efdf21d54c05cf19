// @simdock/server: the public entry point for other packages (e2e tests, benchmarks, tools).

export { createServer, type ServerOptions, type ServerParts } from './app.ts';
export { type Clock, ManualClock, systemClock } from './clock.ts';
export { ConfigError } from './config.ts';
export type { AppContext } from './context.ts';
export { type Db, openPglite, openPostgres } from './db/db.ts';
export { migrate } from './db/migrate.ts';
export { openDatabase } from './db/open.ts';
export { DEMO_GATEWAY, DEMO_SERVICES, DEMO_USER } from './demo/demo.ts';
export { type RunningServer, startServer } from './server.ts';
export { type Config, loadConfig } from './settings.ts';
