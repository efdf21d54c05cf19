/**
 * The reference for `bench/floor.ts`: a bare Fastify server (no plugins, no logger) whose one route,
 * POST /push?rts=N&notify=1, makes N sequential round trips to PostgreSQL (`SELECT 1` on one pooled
 * connection) and, with notify, a NOTIFY that comes back to this process on a listening connection
 * before the push is answered — the shape of an SMS push with nothing of the product in it. Started
 * as a child process; prints `listening <port>` once it accepts connections.
 */
import Fastify from 'fastify';
import pg from 'pg';

const url = process.env.FLOOR_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const pool = new pg.Pool({ connectionString: url, max: 4 });
const listener = new pg.Client({ connectionString: url });
await listener.connect();
await listener.query('LISTEN floor');
const waiting = new Map<string, () => void>();
listener.on('notification', (n) => waiting.get(n.payload ?? '')?.());
let next = 0;

const app = Fastify({ logger: false });
app.post<{ Querystring: { rts?: string; notify?: string } }>('/push', async (req) => {
  const rts = Number(req.query.rts ?? 0);
  const client = await pool.connect();
  try {
    for (let i = 0; i < rts; i++)
      await client.query({ name: 'floor_select', text: 'SELECT $1::int', values: [i] });
    if (req.query.notify === '1') {
      const id = String(next++);
      const heard = new Promise<void>((resolve) => waiting.set(id, resolve));
      await client.query({ name: 'floor_notify', text: 'SELECT pg_notify($1, $2)', values: ['floor', id] });
      await heard;
      waiting.delete(id);
    }
  } finally {
    client.release();
  }
  return { code: 200 };
});
const address = await app.listen({ host: '127.0.0.1', port: 0 });
process.stdout.write(`listening ${new URL(address).port}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
