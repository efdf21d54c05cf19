/**
 * The reference for `bench/api.ts`: a bare Fastify server (the server's Fastify version, no plugins,
 * no logger) with two POST routes: `/bare` answers a small JSON; `/bare-same` answers the JSON text
 * in the file BODY_FILE as it is (the bench puts the real server's getbyuser answer there, so the
 * two send the same bytes). Started as a child process; prints `listening <port>` on stdout once it
 * accepts connections.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/bare', async () => ({ code: 1, msg: 'ok' }));
const same = process.env.BODY_FILE ? readFileSync(process.env.BODY_FILE, 'utf8') : '{}';
app.post('/bare-same', async (_req, reply) => reply.type('application/json; charset=utf-8').send(same));
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.stdout.write(`listening ${new URL(address).port}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
