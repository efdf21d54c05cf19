/**
 * One autocannon measurement in its own process (so it never shares an event loop with a server),
 * for `bench/api.ts`. Its one argument is a JSON object: `{ url, method, tokens, connections,
 * seconds }`. Requests carry `Authorization: Bearer <token>`, taking the tokens in turn (several
 * tokens: several users calling at once). Prints autocannon's result object as JSON.
 */
import autocannon from 'autocannon';

const { url, method, tokens, connections, seconds, rate } = JSON.parse(process.argv[2]!) as {
  url: string;
  method: 'GET' | 'POST';
  tokens: string[];
  connections: number;
  seconds: number;
  /** Requests per second in all, when set (a fixed load instead of as many as possible). */
  rate?: number;
};
const request = {
  method,
  headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[0]}` },
  ...(method === 'POST' ? { body: '{}' } : {}),
};
let next = 0;
// One token: fixed headers, as the autocannon CLI sends them (a per-request hook costs the load
// generator enough to lower what it can measure).
const result = await autocannon({
  url,
  connections,
  duration: seconds,
  ...(rate ? { overallRate: rate } : {}),
  ...(tokens.length === 1
    ? request
    : {
        requests: [
          {
            ...request,
            setupRequest(req) {
              req.headers = { ...req.headers, authorization: `Bearer ${tokens[next++ % tokens.length]}` };
              return req;
            },
          },
        ],
      }),
});
// Its own CPU too (user + system, ms): the load generator shares the machine's cores.
const cpu = process.cpuUsage();
process.stdout.write(JSON.stringify({ ...result, cpuMs: (cpu.user + cpu.system) / 1000 }));
