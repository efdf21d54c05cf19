import type { ConfiguredModule } from '../../module.ts';
import { metricsConfig } from './metrics.config.ts';
import { metricsRoutes } from './metrics.routes.ts';

// Metrics: GET /metrics, the Prometheus scrape of this server (the kernel's `ctx.metrics`, filled by
// small hooks in the modules, plus queue depths counted at scrape time and the process metrics).
export { metricsConfig };

export const metricsModule: ConfiguredModule<typeof metricsConfig> = {
  name: 'metrics',
  tables: [],
  config: metricsConfig,
  routes: metricsRoutes,
};
