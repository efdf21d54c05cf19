import type { ModuleDescriptor } from '../../module.ts';
import { metaRoutes } from './meta.routes.ts';

// Meta: public facts the UI needs before sign-in.
export const metaModule: ModuleDescriptor = { name: 'meta', tables: [], routes: metaRoutes };
