import type { ModuleDescriptor } from '../../module.ts';
import { metricsRoutes } from './metrics.routes.ts';

// Metrics: GET /metrics, the Prometheus scrape of this server (the kernel's `ctx.metrics`, filled by
// small hooks in the modules, plus queue depths counted at scrape time and the process metrics).
export const metricsModule: ModuleDescriptor = { name: 'metrics', tables: [], routes: metricsRoutes };
