import { endpoints, MASS_SEND_TEXT_MAX_CHARS, messagingMessages } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { dailyStats, exportHistoryCsv, queryHistory } from './history.service.ts';
import {
  campaignProgress,
  cancelCampaign,
  getAdminSettings,
  getSettings,
  sendMassSms,
  updateSettings,
} from './messaging.service.ts';

/**
 * The send's body may pass the server-wide 2 MB: two text fields of up to 2,000,000 characters each
 * (100,000 numbers take about 1.3 MB; 10,000 message lines of 150 characters in a non-Latin script
 * take up to 4.5 MB of UTF-8). Anything larger is refused (413) before it is parsed.
 */
export const MASS_SEND_BODY_LIMIT = 3 * MASS_SEND_TEXT_MAX_CHARS;

export function messagingRoutes(app: App, ctx: AppContext) {
  const { outreach, history, settings } = endpoints;

  route(app, ctx, outreach.getSettings, async () => getSettings(ctx));

  route(app, ctx, settings.get, async () => getAdminSettings(ctx));

  route(app, ctx, settings.update, async (req) => updateSettings(ctx, req.body, currentUser(req)));

  route(
    app,
    ctx,
    outreach.sendMassSms,
    async (req) => ({
      code: 1 as const,
      msg: messagingMessages.sendSuccess,
      data: await sendMassSms(ctx, currentUser(req), req.body),
    }),
    { bodyLimit: MASS_SEND_BODY_LIMIT },
  );

  route(app, ctx, outreach.campaign, async (req) => ({
    code: 1 as const,
    data: await campaignProgress(ctx, currentUser(req).id, req.body?.campaignId),
  }));

  route(app, ctx, outreach.cancel, async (req) => {
    const data = await cancelCampaign(ctx, currentUser(req).id, req.body?.campaignId);
    const msg =
      data.cancelled === 0
        ? 'Nothing left to cancel: every message was already handed to a gateway.'
        : `Cancelled ${data.cancelled} message${data.cancelled === 1 ? '' : 's'} not yet sent.`;
    return { code: 1 as const, msg, data };
  });

  route(app, ctx, history.queryMsg, async (req) => queryHistory(ctx, currentUser(req), req.body));

  route(app, ctx, history.dailyStats, async (req) => ({
    code: 1 as const,
    data: { days: await dailyStats(ctx, currentUser(req), req.body) },
  }));

  route(app, ctx, history.exportMsg, async (req, reply) => {
    const csv = await exportHistoryCsv(ctx, currentUser(req), req.body?.params ?? {});
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', 'attachment; filename="sms-history.csv"')
      .send(csv);
  });
}
