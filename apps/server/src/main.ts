import { join } from 'node:path';
import { ConfigError } from './config.ts';
import { openDatabase } from './db/open.ts';
import { DEMO_USER } from './demo/demo.ts';
import { startServer } from './server.ts';
import { loadConfig } from './settings.ts';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const db = await openDatabase(config).catch((err: Error) =>
    fail(`Cannot open the database: ${err.message}`),
  );
  const server = await startServer({ config, db }).catch(async (err: NodeJS.ErrnoException) => {
    await db.close().catch(() => {});
    if (err.code === 'EADDRINUSE')
      fail(`Port ${config.PORT} is already in use. Stop the other program or set PORT.`);
    throw err;
  });
  server.ctx.log.info(
    `SimDock is running at ${config.PUBLIC_URL} (database: ${db.kind === 'pg' ? 'PostgreSQL server' : `embedded PGlite in ${config.DATA_DIR}`})`,
  );
  printBanner(config, server.generatedAdminPassword);
  // Graceful shutdown: in-flight requests answered, live streams ended, workers stop after their
  // current tick (whose writes are transactions), then the database closes. A second signal, or
  // a shutdown still running after SHUTDOWN_TIMEOUT_MS, ends the process at once.
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) {
      server.ctx.log.warn(`${signal} received again, exiting now`);
      process.exit(1);
    }
    stopping = true;
    server.ctx.log.info(`${signal} received, shutting down`);
    setTimeout(() => {
      server.ctx.log.error(`shutdown did not finish within ${SHUTDOWN_TIMEOUT_MS} ms, exiting`);
      process.exit(1);
    }, SHUTDOWN_TIMEOUT_MS).unref();
    try {
      await server.stop();
      await db.close();
    } catch (err) {
      server.ctx.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
    server.ctx.log.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
}

/** Longer than a worker tick waiting on a gateway (its requests time out after 8 s). */
const SHUTDOWN_TIMEOUT_MS = 20_000;

/** Stops at start-up with one line a person can act on, instead of a stack trace. */
function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** A human-readable summary on stdout, next to the JSON logs. */
function printBanner(config: ReturnType<typeof loadConfig>, generatedPassword?: string) {
  const adminPassword = config.ADMIN_PASSWORD
    ? 'the ADMIN_PASSWORD you set'
    : generatedPassword
      ? `${generatedPassword}  (generated now${config.DEMO ? `; also in ${join(config.DATA_DIR, 'admin-password.txt')}` : '; shown once'})`
      : config.DEMO
        ? `see ${join(config.DATA_DIR, 'admin-password.txt')}`
        : 'printed in the log when the account was created';
  const lines = [
    '',
    `  SimDock is ready: ${config.PUBLIC_URL}`,
    `  Admin sign-in:    admin / ${adminPassword}`,
    ...(config.DEMO
      ? [`  Demo sign-in:     ${DEMO_USER.username} / ${DEMO_USER.password}  (demo mode)`]
      : []),
    '',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
}

void main();
