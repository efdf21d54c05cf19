import { AppMeta } from '../api/common.ts';
import { endpoint } from '../endpoint.ts';

/** Public facts the UI needs before sign-in (demo mode, server time). */
export const meta = {
  get: endpoint({
    method: 'GET',
    path: '/api/meta',
    access: 'public',
    tag: 'meta',
    response: { 200: AppMeta },
  }),
  /**
   * Prometheus metrics (text exposition format). Outside /api and the OpenAPI document; the server
   * guards it (METRICS_TOKEN, or refused in production without one).
   */
  metrics: endpoint({ method: 'GET', path: '/metrics', access: 'public', tag: 'meta', hide: true }),
};
