import { drainInBatches } from '../../db/retention.ts';
import { foldAll } from '../../db/tallies.ts';
import type { ConfiguredModule } from '../../module.ts';
import { chatRoutes } from './chat.routes.ts';
import { forgetFinishedTurns } from './dispatch.queries.ts';
import { dispatchOnce, failOverdueResults, recordSendReports } from './dispatch.service.ts';
import { compactHourly } from './history.queries.ts';
import { MESSAGING_TALLIES } from './history-stats.queries.ts';
import { removeUnusedMedia } from './media.service.ts';
import { messageApiRoutes } from './message-api.routes.ts';
import { finishQuietCampaigns } from './message-events.service.ts';
import { messagingConfig } from './messaging.config.ts';
import { readSettings } from './messaging.queries.ts';
import { messagingRoutes } from './messaging.routes.ts';
import { renderCampaignEvent } from './messaging.service.ts';
import { refundEndedMessages } from './refunds.service.ts';
import { consumeReply, renderConversationEvent } from './replies.service.ts';

// Messaging: bulk SMS. The admin's limits, campaigns of queued messages, the dispatcher that hands
// them to the gateways' SIMs (through the gateways module) and records their results (a report
// consumer), conversations with their replies and opt-outs (an SMS consumer after rental's), and
// the history.

export { EXPIRED_REASON, oldestQueuedMessageAge, queuedMessageCount } from './dispatch.queries.ts';
export { dispatchOnce, failOverdueResults, queueFigures } from './dispatch.service.ts';
export { apiGetMessage, apiSend, messagesOfSend } from './message-api.service.ts';
export { sendMassSms, setLimitsIfUnset } from './messaging.service.ts';
export { refundEndedMessages } from './refunds.service.ts';

export { messagingConfig };

export const messagingModule: ConfiguredModule<typeof messagingConfig> = {
  name: 'messaging',
  tables: [
    'messaging_settings',
    'campaigns',
    'messages',
    'conversations',
    'conversation_replies',
    'opt_outs',
    'messaging_daily_usage',
    'messaging_sim_pace',
    'messaging_turns',
    'messaging_hourly',
    'messaging_media',
    'messaging_hourly_all',
    'replies_hourly',
    'replies_hourly_all',
  ],
  config: messagingConfig,
  routes: async (app, ctx) => {
    messagingRoutes(app, ctx);
    await chatRoutes(app, ctx);
    await messageApiRoutes(app, ctx);
  },
  // After rental's consumer (modules/index.ts order): an SMS that completes an order is not a reply.
  smsConsumers: [consumeReply],
  messagePrices: async (ctx) => {
    const s = await readSettings(ctx.db);
    return { smsPricePerSegment: Number(s.sms_price_per_segment), mmsPrice: Number(s.mms_price) };
  },
  reportConsumers: [recordSendReports],
  liveRenderers: { campaign: renderCampaignEvent, conversation: renderConversationEvent },
  userHistoryChecks: [
    async (q, userId) => {
      const rows = await q.query('SELECT 1 FROM campaigns WHERE user_id = $1 LIMIT 1', [userId]);
      return rows.length > 0 ? 'messages' : null;
    },
  ],
  jobs: [
    {
      name: 'messaging-dispatch',
      intervalMs: (ctx) => ctx.config.SMS_DISPATCH_INTERVAL_MS,
      run: async (ctx) => {
        const result = await dispatchOnce(ctx);
        // One line per tick that moved something: with several processes, who sent what.
        if (result.claimed) ctx.log.info(result, 'messages dispatched');
      },
    },
    {
      name: 'messaging-hourly-compaction',
      intervalMs: () => 60_000,
      // Hours more than one hour old: the rows appended by their status changes fold into one (in
      // batches of pairs; a backlog drains over a few ticks). And the turns of campaigns with
      // nothing left to send are forgotten (one row per campaign ever).
      run: async (ctx) => {
        const before = new Date(ctx.clock.now().getTime() - 3_600_000);
        await drainInBatches((n) => compactHourly(ctx.db, before, n));
        await forgetFinishedTurns(ctx.db);
      },
    },
    {
      // The History rollups of migration 030: their appended rows fold into one per hour (they
      // stay exact unfolded too).
      name: 'messaging-tallies-fold',
      intervalMs: () => 60_000,
      run: async (ctx) => {
        await foldAll(ctx.db, MESSAGING_TALLIES);
      },
    },
    {
      name: 'messaging-media-cleanup',
      intervalMs: () => 3_600_000,
      run: async (ctx) => {
        await removeUnusedMedia(ctx);
      },
    },
    {
      // Refunds run right after the change that ends a message; this catches what a crash or a
      // path without its own call left (every process may run it: each message is refunded once).
      name: 'messaging-refunds',
      intervalMs: () => 10_000,
      run: async (ctx) => {
        await refundEndedMessages(ctx);
      },
    },
    {
      // Campaigns end (and `campaign.finished` is emitted) in the transaction that ended their last
      // message; this catches an ending written by a path that did not check.
      name: 'messaging-campaign-finish',
      intervalMs: () => 60_000,
      run: async (ctx) => {
        while ((await finishQuietCampaigns(ctx)) >= 100) {
          // a full batch: more may be due
        }
      },
    },
    {
      // Also fails queued messages whose validity ended.
      name: 'messaging-result-timeout',
      intervalMs: () => 30_000,
      run: async (ctx) => {
        let n: number;
        do n = await failOverdueResults(ctx);
        while (n >= 1000);
      },
    },
  ],
};
