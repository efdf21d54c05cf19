/**
 * Controls for `bench/floor.ts` between the C server and the bare Fastify one: Node.js answering a
 * push at once, FLOOR_STACK=http with node:http (its HTTP parser, request and response objects), or
 * FLOOR_STACK=net with a bare TCP socket that answers every read with a fixed 200 (one read is one
 * push, as the bench sends them). Prints `listening <port>` once it accepts connections.
 */
import http from 'node:http';
import net from 'node:net';

const stack = process.env.FLOOR_STACK ?? 'http';
const body = '{"code":200}';
const answer = `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: keep-alive\r\n\r\n${body}`;

const server =
  stack === 'net'
    ? net.createServer((socket) => {
        socket.setNoDelay(true);
        socket.on('data', () => socket.write(answer));
      })
    : http.createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          res.setHeader('content-type', 'application/json');
          res.end(body);
        });
      });
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`listening ${address.port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
