import { createServer, type ServerOptions, type ServerParts } from './app.ts';
import { migrate } from './db/migrate.ts';
import { keepDemoAdminPassword, startDemo } from './demo/demo.ts';
import { ensureAdmin } from './modules/auth/index.ts';
import { startWorkers } from './workers/index.ts';
import { startListeners } from './workers/listeners.ts';

export interface RunningServer extends ServerParts {
  url: string;
  /** The admin password generated at this start, if the admin account was created just now. */
  generatedAdminPassword?: string;
  stop(): Promise<void>;
}

/**
 * Migrates, makes sure an admin exists, starts the background workers, then the modules' listeners
 * (database LISTENs, sockets), then takes HTTP requests.
 */
export async function startServer(opts: ServerOptions & { workers?: boolean }): Promise<RunningServer> {
  // Migrated first: the modules start listening for events as the server is made (db_listeners).
  const applied = await migrate(opts.db);
  const parts = await createServer(opts);
  const { app, ctx } = parts;
  if (applied.length) ctx.log.info({ migrations: applied }, 'database migrated');
  const admin = await ensureAdmin(ctx);
  if (admin.created) {
    if (admin.password) {
      // The password itself is shown once, in the start banner (main.ts), never in a log line:
      // log lines end up in collectors and files that other people read.
      ctx.log.warn('Created admin account "admin" with a generated password (shown in the start banner)');
      if (opts.config.DEMO) keepDemoAdminPassword(ctx, admin.password);
    } else {
      ctx.log.info('Created admin account "admin" with ADMIN_PASSWORD');
    }
  }
  const stopWorkers = opts.workers === false ? async () => {} : await startWorkers(ctx);
  const stopListeners = await startListeners(ctx).catch(async (err) => {
    await stopWorkers();
    throw err;
  });
  try {
    await app.listen({ host: opts.config.HOST, port: opts.config.PORT });
  } catch (err) {
    await Promise.all([stopWorkers(), stopListeners()]);
    throw err;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : opts.config.PORT;
  // An ephemeral port (PORT=0): the default public URL names the port actually bound, so what
  // devices are told at once (the demo phone's webhooks) reaches this server.
  if (ctx.config.PUBLIC_URL === 'http://127.0.0.1:0') ctx.config.PUBLIC_URL = `http://127.0.0.1:${port}`;
  const stopDemo = opts.config.DEMO ? await startDemo(ctx) : async () => {};
  return {
    ...parts,
    url: `http://127.0.0.1:${port}`,
    ...(admin.password ? { generatedAdminPassword: admin.password } : {}),
    /**
     * Graceful: at once no new connection is accepted (new requests on open ones get 503), while
     * requests in flight finish and every worker finishes its current tick; live streams end.
     * Once HTTP has drained, the listeners stop (in reverse order). Resolves when all of that is
     * done (the caller closes the database after).
     */
    async stop() {
      await Promise.all([stopDemo().then(stopWorkers), app.close().then(stopListeners)]);
    },
  };
}
