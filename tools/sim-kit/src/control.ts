// The /sim/* control API's dispatch: a table of `METHOD /path` routes, each given the request's JSON
// object body ({} when empty). Unauthenticated on purpose: a simulator is a test tool and must only
// listen where nobody else can reach it.
import { parseJsonObject, type SimReply } from './http.ts';

export type ControlRoute = (body: Record<string, unknown>) => SimReply | Promise<SimReply>;

export interface ControlApi {
  /** Keyed `GET /sim/state`, `POST /sim/outcome`, … */
  routes: Record<string, ControlRoute>;
  /** The simulator's error body for a message (each speaks its protocol's error shape). */
  error: (message: string) => unknown;
}

/** Answers one control request: 404 for an unknown route, 400 for a bad body or a route that throws. */
export async function handleControl(
  api: ControlApi,
  req: { method: string; path: string; body: string },
): Promise<SimReply> {
  const bad = (message: string): SimReply => ({ status: 400, json: api.error(message) });
  const body = req.body.trim() === '' ? {} : parseJsonObject(req.body);
  if (!body) return bad('body must be a JSON object');
  const route = api.routes[`${req.method} ${req.path}`];
  if (!route) return { status: 404, json: api.error('unknown control route') };
  try {
    return await route(body);
  } catch (err) {
    return bad(err instanceof Error ? err.message : String(err));
  }
}
