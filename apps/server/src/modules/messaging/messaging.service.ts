import {
  type AdminOutreachSettings,
  assignMessages,
  type CampaignProgress,
  hasLoneSurrogate,
  type MassOutreachSettings,
  type MassSendBody,
  type MassSendData,
  messagingMessage,
  type UpdateSettingsBody,
  validateMassSend,
} from '@simdock/contract';
import type { AppContext, AuthUser, LiveRenderer } from '../../context.ts';
import { badInput, DomainError, notFound } from '../../errors.ts';
import { publish } from '../../events.ts';
import { type AuditActor, recordAudit } from '../audit/index.ts';
import { type SimSettings, saveSimSettings, simSettings } from '../gateways/index.ts';
import { noFreeSim } from './dispatch.service.ts';
import {
  type CampaignRow,
  campaignCounts,
  cancelQueued,
  dailyUsed,
  findCampaign,
  insertCampaign,
  insertCampaignMessages,
  latestCampaign,
  optedOutAmong,
  readSettings,
  readSettingsForUpdate,
  releaseDaily,
  reserveDaily,
  type SettingsRow,
  writeSettings,
} from './messaging.queries.ts';

// ---- settings -----------------------------------------------------------------------------------

type Limits = Pick<MassOutreachSettings, 'maxBatchSendSms' | 'maxMsgPerDay'>;

const toLimits = (r: SettingsRow): Limits => ({
  maxBatchSendSms: r.max_batch_send_sms,
  maxMsgPerDay: r.max_msg_per_day,
});

/**
 * The bulk SMS limits (this module's) with the SIM settings (the gateways module keeps them: it
 * applies them to the SIMs) and whether any SIM can send now.
 */
async function settingsOf(ctx: AppContext, limits: Limits, sims: SimSettings): Promise<MassOutreachSettings> {
  return { ...limits, ...sims, noFreeSim: await noFreeSim(ctx) };
}

export async function getSettings(ctx: AppContext): Promise<MassOutreachSettings> {
  const [r, sims] = await Promise.all([readSettings(ctx.db), simSettings(ctx.db)]);
  return settingsOf(ctx, toLimits(r), sims);
}

export async function getAdminSettings(ctx: AppContext): Promise<AdminOutreachSettings> {
  const [r, sims] = await Promise.all([readSettings(ctx.db), simSettings(ctx.db)]);
  return {
    ...(await settingsOf(ctx, toLimits(r), sims)),
    updatedAt: r.updated_at?.toISOString() ?? null,
    updatedBy: r.updated_by,
  };
}

/**
 * The admin's save (docs/product.md#calls): whole numbers ≥ 0 (the schema checked them), audited. The SIM
 * settings are saved in the same transaction by the gateways module; a SIM field left out keeps
 * its value.
 */
export async function updateSettings(
  ctx: AppContext,
  body: Required<UpdateSettingsBody>,
  actor: AuditActor,
): Promise<MassOutreachSettings> {
  const at = ctx.clock.now();
  const saved = await ctx.db.tx(async (q) => {
    const before = toLimits(await readSettingsForUpdate(q));
    const after = toLimits(
      await writeSettings(q, {
        maxBatchSendSms: body.MaxBatchSendSms,
        maxMsgPerDay: body.MaxMsgPerDay,
        at,
        by: actor.username,
      }),
    );
    const sims = await saveSimSettings(q, {
      ...(body.SimMaxSmsPerDay !== undefined ? { simMaxSmsPerDay: body.SimMaxSmsPerDay } : {}),
      ...(body.SimMaxSmsPerMonth !== undefined ? { simMaxSmsPerMonth: body.SimMaxSmsPerMonth } : {}),
      ...(body.SimLockAfterFailures !== undefined ? { simLockAfterFailures: body.SimLockAfterFailures } : {}),
      ...(body.SimCooldownMinutes !== undefined ? { simCooldownMinutes: body.SimCooldownMinutes } : {}),
    });
    await recordAudit(q, {
      actor,
      kind: 'settings.update',
      targetId: null,
      targetLabel: 'Bulk SMS limits',
      before: { ...before, ...sims.before },
      after: { ...after, ...sims.after },
      at,
    });
    return { limits: after, sims: sims.after };
  });
  return settingsOf(ctx, saved.limits, saved.sims);
}

/**
 * Sets limits only while both are still 0 (never over an admin's choice): the demo's workable values.
 * True when it set them.
 */
export async function setLimitsIfUnset(ctx: AppContext, values: Limits, by = 'demo'): Promise<boolean> {
  return ctx.db.tx(async (q) => {
    const now = await readSettingsForUpdate(q);
    if (now.max_batch_send_sms !== 0 || now.max_msg_per_day !== 0) return false;
    await writeSettings(q, {
      maxBatchSendSms: values.maxBatchSendSms,
      maxMsgPerDay: values.maxMsgPerDay,
      at: ctx.clock.now(),
      by,
    });
    return true;
  });
}

// ---- sending ------------------------------------------------------------------------------------

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

export const sendingDisabled = (what: 'Max Batch Send SMS' | 'Max Messages Per Day') =>
  new DomainError(
    'sending_disabled',
    `Bulk sending is turned off: an administrator has set ${what} to 0. Ask an administrator to raise it.`,
  );

/**
 * Mass send (docs/product.md): every rule again on the server, MaxBatchSendSms per request, MaxMsgPerDay
 * per user and UTC day, opted-out recipients skipped; then, in one transaction, the campaign and one
 * queued message per recipient (variants rotating). Nothing is stored by a refused request.
 */
export async function sendMassSms(
  ctx: AppContext,
  user: AuthUser,
  body: MassSendBody,
): Promise<MassSendData> {
  const settings = await readSettings(ctx.db);
  if (settings.max_batch_send_sms === 0) throw sendingDisabled('Max Batch Send SMS');
  if (settings.max_msg_per_day === 0) throw sendingDisabled('Max Messages Per Day');
  const plan = validateMassSend(body, settings.max_batch_send_sms);
  if (!plan.ok) throw badInput(plan.error.text, plan.field);
  // Numbers are digits by now; a message line could still carry what no SMS (and no database) takes.
  if (plan.messages.some((m) => m.includes('\u0000') || hasLoneSurrogate(m))) {
    throw badInput(
      'The message content contains an invalid character (NUL or a lone UTF-16 surrogate).',
      'mess',
    );
  }

  const now = ctx.clock.now();
  const day = utcDay(now);
  const limit = settings.max_msg_per_day;
  return ctx.db.tx(async (q) => {
    const optedOut = await optedOutAmong(q, user.id, plan.recipients);
    const recipients = optedOut.size ? plan.recipients.filter((r) => !optedOut.has(r)) : plan.recipients;
    if (recipients.length === 0) {
      throw new DomainError(
        'all_opted_out',
        `Nothing to send: all ${optedOut.size} recipient${optedOut.size === 1 ? ' has' : 's have'} asked not to be messaged again (STOP).`,
        'number',
      );
    }
    const used = await reserveDaily(q, user.id, day, recipients.length, limit);
    if (used === undefined) {
      const remaining = Math.max(0, limit - (await dailyUsed(q, user.id, day)));
      const m = messagingMessage('dailyLimitReached', { limit, remaining });
      throw new DomainError(
        'daily_limit_reached',
        `${m.text} This send has ${recipients.length} message${recipients.length === 1 ? '' : 's'}.`,
        'number',
      );
    }
    const assigned = assignMessages(recipients, plan.messages);
    const index = new Map(plan.messages.map((m, i) => [m, i]));
    const campaignId = await insertCampaign(q, {
      userId: user.id,
      total: recipients.length,
      duplicatesRemoved: plan.duplicatesRemoved,
      skippedOptOut: optedOut.size,
      at: now,
    });
    await insertCampaignMessages(q, {
      campaignId,
      userId: user.id,
      recipients,
      variantIndex: assigned.map((a) => index.get(a.text)!),
      variants: plan.messages,
      at: now,
    });
    await publish(q, { type: 'campaign', userId: user.id, campaignId });
    return {
      campaignId,
      queued: recipients.length,
      duplicatesRemoved: plan.duplicatesRemoved,
      skippedOptOut: optedOut.size,
    };
  });
}

// ---- campaigns ----------------------------------------------------------------------------------

async function progressOf(ctx: AppContext, c: CampaignRow): Promise<CampaignProgress> {
  const n = await campaignCounts(ctx.db, c.id);
  return {
    campaignId: c.id,
    createdAt: Math.floor(c.created_at.getTime() / 1000),
    total: c.total,
    queued: n.queued + n.sending,
    sent: n.sent,
    delivered: n.delivered,
    failed: n.failed,
    cancelled: n.cancelled,
    finished: n.queued + n.sending + n.sent === 0,
    // Said plainly on the sending page: queued messages and not one SIM that can take them.
    waitingForSim: n.queued > 0 && (await noFreeSim(ctx)),
  };
}

const campaignNotFound = () => notFound('Campaign not found.', 'campaign_not_found');

/** One of the user's campaigns (their latest without an id); another user's is not found. */
export async function campaignProgress(
  ctx: AppContext,
  userId: string,
  campaignId?: string,
): Promise<CampaignProgress | null> {
  const c = campaignId ? await findCampaign(ctx.db, campaignId) : await latestCampaign(ctx.db, userId);
  if (!c) {
    if (campaignId) throw campaignNotFound();
    return null;
  }
  if (c.user_id !== userId) throw campaignNotFound();
  return progressOf(ctx, c);
}

/** Stops one campaign (or every one of the user's): messages no device has taken are cancelled. */
export async function cancelCampaign(
  ctx: AppContext,
  userId: string,
  campaignId?: string,
): Promise<{ cancelled: number }> {
  if (campaignId) {
    const c = await findCampaign(ctx.db, campaignId);
    if (!c || c.user_id !== userId) throw campaignNotFound();
  }
  const at = ctx.clock.now();
  return ctx.db.tx(async (q) => {
    const done = await cancelQueued(q, userId, campaignId ?? null, at);
    let cancelled = 0;
    for (const d of done) {
      cancelled += d.n;
      await releaseDaily(q, userId, d.day, d.n);
      await publish(q, { type: 'campaign', userId, campaignId: d.campaign_id });
    }
    return { cancelled };
  });
}

/** Live stream: a campaign event sends the campaign's progress, to its owner only. */
export const renderCampaignEvent: LiveRenderer<'campaign'> = async (ctx, event) => {
  if (event.type !== 'campaign') return null;
  const c = await findCampaign(ctx.db, event.campaignId);
  if (!c || c.user_id !== event.userId) return null;
  return { event: 'campaign', data: await progressOf(ctx, c) };
};
