import { ConfigError } from './config.ts';
import { migrate } from './db/migrate.ts';
import { openDatabase } from './db/open.ts';
import { loadConfig } from './settings.ts';

try {
  const config = loadConfig();
  const db = await openDatabase(config);
  const applied = await migrate(db);
  console.log(applied.length ? `Applied: ${applied.join(', ')}` : 'Database is up to date.');
  await db.close();
} catch (err) {
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
}
