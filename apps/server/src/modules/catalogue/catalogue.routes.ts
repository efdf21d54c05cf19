import { endpoints } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { messageCountries, setMessageCountry } from './catalogue.service.ts';

export function catalogueRoutes(app: App, ctx: AppContext): void {
  const { catalogue } = endpoints;
  route(app, ctx, catalogue.messageCountries, async () => messageCountries(ctx.db));
  route(app, ctx, catalogue.setMessageCountry, async (req) =>
    setMessageCountry(ctx, req.body, currentUser(req)),
  );
}
