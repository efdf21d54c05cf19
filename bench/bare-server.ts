/**
 * The reference for `bench/api.ts`: a bare Fastify server (the server's Fastify version, no plugins,
 * no logger) with one POST route answering a small JSON. Started as a child process; prints
 * `listening <port>` on stdout once it accepts connections.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.post('/bare', async () => ({ code: 1, msg: 'ok' }));
const address = await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
process.stdout.write(`listening ${new URL(address).port}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
