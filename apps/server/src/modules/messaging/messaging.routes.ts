import {
  AdminOutreachSettings,
  CampaignBody,
  CampaignResponse,
  CancelCampaignBody,
  CancelCampaignResponse,
  DailyStatsBody,
  DailyStatsResponse,
  ExportMsgBody,
  MASS_SEND_TEXT_MAX_CHARS,
  MassOutreachSettings,
  MassSendBody,
  MassSendResponse,
  messagingMessages,
  QueryMsgBody,
  QueryMsgResponse,
  UpdateSettingsBody,
} from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { access, currentUser } from '../../http/route.ts';
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
  const tags = ['messaging'];

  app.post(
    '/api/MassOutreach/getSettings',
    { ...access(ctx, 'user'), schema: { tags, response: { 200: MassOutreachSettings } } },
    async () => getSettings(ctx),
  );

  app.post(
    '/api/Admin/getOutreachSettings',
    { ...access(ctx, 'admin'), schema: { tags: ['admin'], response: { 200: AdminOutreachSettings } } },
    async () => getAdminSettings(ctx),
  );

  app.post(
    '/api/Admin/updateSettings',
    {
      ...access(ctx, 'admin'),
      schema: { tags: ['admin'], body: UpdateSettingsBody, response: { 200: MassOutreachSettings } },
    },
    async (req) => updateSettings(ctx, req.body as Required<UpdateSettingsBody>, currentUser(req)),
  );

  app.post(
    '/api/MassOutreach/sendMassSMS',
    {
      ...access(ctx, 'user'),
      bodyLimit: MASS_SEND_BODY_LIMIT,
      schema: { tags, body: MassSendBody, response: { 200: MassSendResponse } },
    },
    async (req) => ({
      code: 1 as const,
      msg: messagingMessages.sendSuccess,
      data: await sendMassSms(ctx, currentUser(req), req.body),
    }),
  );

  app.post(
    '/api/MassOutreach/campaign',
    { ...access(ctx, 'user'), schema: { tags, body: CampaignBody, response: { 200: CampaignResponse } } },
    async (req) => ({
      code: 1 as const,
      data: await campaignProgress(ctx, currentUser(req).id, req.body?.campaignId),
    }),
  );

  app.post(
    '/api/MassOutreach/cancel',
    {
      ...access(ctx, 'user'),
      schema: { tags, body: CancelCampaignBody, response: { 200: CancelCampaignResponse } },
    },
    async (req) => {
      const data = await cancelCampaign(ctx, currentUser(req).id, req.body?.campaignId);
      const msg =
        data.cancelled === 0
          ? 'Nothing left to cancel: every message was already handed to a gateway.'
          : `Cancelled ${data.cancelled} message${data.cancelled === 1 ? '' : 's'} not yet sent.`;
      return { code: 1 as const, msg, data };
    },
  );

  app.post(
    '/api/MassOutreach/querymsg',
    { ...access(ctx, 'user'), schema: { tags, body: QueryMsgBody, response: { 200: QueryMsgResponse } } },
    async (req) => queryHistory(ctx, currentUser(req), req.body),
  );

  app.post(
    '/api/MassOutreach/dailyStats',
    { ...access(ctx, 'user'), schema: { tags, body: DailyStatsBody, response: { 200: DailyStatsResponse } } },
    async (req) => ({ code: 1 as const, data: { days: await dailyStats(ctx, currentUser(req), req.body) } }),
  );

  app.post(
    '/api/MassOutreach/exportmsg',
    {
      ...access(ctx, 'user'),
      schema: { tags, body: ExportMsgBody, description: 'The filtered history records as CSV (text/csv).' },
    },
    async (req, reply) => {
      const csv = await exportHistoryCsv(ctx, currentUser(req), req.body?.params ?? {});
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="sms-history.csv"')
        .send(csv);
    },
  );
}
