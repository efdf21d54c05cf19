import { type ChildProcess, spawn } from 'node:child_process';
import { SimFleet } from '@simdock/gateway-sim';
import { benchServerEnv, type Json, serveArgs } from './http.ts';

/** POSTs JSON to `base`; resolves with the round trip's ms and the body, stops the bench on a non-2xx. */
export function timedPoster(base: string) {
  return async (
    path: string,
    body: unknown,
    token?: string,
    headers: Record<string, string> = {},
  ): Promise<{ ms: number; json: Json }> => {
    const t = performance.now();
    const res = await fetch(base + path, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...headers,
      },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as Json;
    const ms = performance.now() - t;
    if (!res.ok) throw new Error(`${path}: ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return { ms, json };
  };
}

/** Starts `npm run serve`'s process on `databaseUrl` and resolves once `/readyz` answers. */
export async function startBenchServer(
  port: number,
  databaseUrl: string,
  env: NodeJS.ProcessEnv,
): Promise<ChildProcess> {
  const server = spawn(process.execPath, serveArgs(), {
    env: { ...benchServerEnv(port, databaseUrl), ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; ; i++) {
    if ((await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.ok) return server;
    if (i > 300 || server.exitCode !== null) {
      server.kill('SIGTERM');
      throw new Error('server did not start');
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Simulated Ejoin boxes of 16 ports each, every port transmitting in 20 ms (far below the SIM
 * rate's interval), added and scanned as the admin does; the caller stops the fleet.
 */
export async function simGateways(
  post: ReturnType<typeof timedPoster>,
  adminToken: string,
  ports: number,
): Promise<SimFleet> {
  const fleet = await SimFleet.start(ports / 16, { ports: 16, slots: 1, seed: 11, sendDelayMs: 20 });
  try {
    for (const [i, sim] of fleet.devices.entries()) {
      const gw = await post(
        '/api/Admin/updateGateway',
        { gateway: { name: `bench-${i}`, url: sim.url, mac: sim.mac, userName: 'root', password: 'root' } },
        adminToken,
      );
      await post('/api/Admin/gatewayScan', { id: gw.json.id }, adminToken);
    }
  } catch (err) {
    await fleet.stop();
    throw err;
  }
  return fleet;
}
