import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/open.ts';
import { startServer } from './server.ts';

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
  const db = await openDatabase(config);
  const server = await startServer({ config, db });
  server.ctx.log.info(
    `SimDock is running at ${config.PUBLIC_URL} (database: ${db.kind === 'pg' ? 'PostgreSQL server' : `embedded PGlite in ${config.DATA_DIR}`})`,
  );
  const shutdown = async (signal: string) => {
    server.ctx.log.info(`${signal} received, shutting down`);
    await server.stop();
    await db.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
}

void main();
