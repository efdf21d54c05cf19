import {
  type AdminOutreachSettings,
  amountText,
  assignMessages,
  type CampaignProgress,
  countryName,
  disabledDestinations,
  hasLoneSurrogate,
  type MassOutreachSettings,
  type MassSendBody,
  type MassSendData,
  type MassSendPlan,
  type MessagePrices,
  messageCostUnits,
  messagingMessage,
  moneyText,
  PRICE_DECIMALS,
  type RefusedDestination,
  type UpdateSettingsBody,
  unitsText,
  validateMassSend,
} from '@simdock/contract';
import type { AppContext, AuthUser, LiveRenderer } from '../../context.ts';
import type { Queryable } from '../../db/db.ts';
import { badInput, DomainError, notFound } from '../../errors.ts';
import { publish } from '../../events.ts';
import { type AuditActor, recordAudit } from '../audit/index.ts';
import { balanceOf, charge } from '../billing/index.ts';
import { countryOfNumber, messageCountries, messageDestinations } from '../catalogue/index.ts';
import { type SimSettings, saveSimSettings, simSettings } from '../gateways/index.ts';
import { noFreeSim } from './dispatch.service.ts';
import { campaignsMayHaveFinished } from './message-events.service.ts';
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
import { refundEndedMessages } from './refunds.service.ts';

// ---- settings -----------------------------------------------------------------------------------

type Limits = Pick<
  MassOutreachSettings,
  'maxBatchSendSms' | 'maxMsgPerDay' | 'smsPricePerSegment' | 'mmsPrice'
>;

const toLimits = (r: SettingsRow): Limits => ({
  maxBatchSendSms: r.max_batch_send_sms,
  maxMsgPerDay: r.max_msg_per_day,
  smsPricePerSegment: Number(r.sms_price_per_segment),
  mmsPrice: Number(r.mms_price),
});

/**
 * The prices as exact text, for costing: the defaults of the settings and the destinations' own,
 * read through the caller's transaction (a change of price applies to the sends after it).
 */
export async function pricesOf(q: Queryable, r: SettingsRow): Promise<MessagePrices> {
  return {
    smsPricePerSegment: r.sms_price_per_segment,
    mmsPrice: r.mms_price,
    ...(await messageDestinations(q)),
  };
}

/** The country names of a refusal: "Canada (CA)", or what a number with no country is. */
const destinationLabel = (country: string | null) =>
  country === null ? 'numbers with no known country' : `${countryName(country)} (${country})`;

/**
 * 409 `country_not_enabled` naming the countries the operator does not send to: the whole send is
 * refused (nothing queued or charged), so the user removes those numbers and sends again.
 */
export function countryNotEnabled(refused: readonly RefusedDestination[], field?: string): DomainError {
  const n = refused.reduce((sum, r) => sum + r.count, 0);
  const names = refused.map((r) => destinationLabel(r.country));
  const list = names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
  const which = n === 1 ? 'that number' : `those ${n} numbers`;
  return new DomainError(
    'country_not_enabled',
    `Messages to ${list} are not enabled; remove ${which} or ask the operator.`,
    field,
  );
}

/** A price from the save payload as text with 4 places; the schema has checked it. */
const priceText = (v: string | number | undefined) =>
  v === undefined ? undefined : moneyText(v, PRICE_DECIMALS);

/** The 402 of a send the balance cannot cover: what it costs and what there is. */
export const cannotAfford = (cost: string, balance: string | undefined) =>
  new DomainError(
    'balance_too_low',
    `This costs $${amountText(cost)} and your balance is $${amountText(balance ?? '0')}. Please top up.`,
  );

/**
 * The bulk SMS limits (this module's) with the SIM settings (the gateways module keeps them: it
 * applies them to the SIMs) and whether any SIM can send now.
 */
async function settingsOf(ctx: AppContext, limits: Limits, sims: SimSettings): Promise<MassOutreachSettings> {
  const [free, destinations] = await Promise.all([noFreeSim(ctx), messageCountries(ctx.db)]);
  return {
    ...limits,
    ...sims,
    noFreeSim: free,
    countries: destinations.countries,
    otherCountriesEnabled: destinations.otherCountriesEnabled,
  };
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
 * settings are saved in the same transaction by the gateways module; any field left out keeps its
 * value.
 */
export async function updateSettings(
  ctx: AppContext,
  body: UpdateSettingsBody,
  actor: AuditActor,
): Promise<MassOutreachSettings> {
  const at = ctx.clock.now();
  const saved = await ctx.db.tx(async (q) => {
    const before = toLimits(await readSettingsForUpdate(q));
    const after = toLimits(
      await writeSettings(q, {
        maxBatchSendSms: body.MaxBatchSendSms,
        maxMsgPerDay: body.MaxMsgPerDay,
        smsPricePerSegment: priceText(body.SmsPricePerSegment),
        mmsPrice: priceText(body.MmsPrice),
        at,
        by: actor.username,
      }),
    );
    const sims = await saveSimSettings(q, {
      ...(body.SimMaxSmsPerDay !== undefined ? { simMaxSmsPerDay: body.SimMaxSmsPerDay } : {}),
      ...(body.SimMaxSmsPerMonth !== undefined ? { simMaxSmsPerMonth: body.SimMaxSmsPerMonth } : {}),
      ...(body.SimLockAfterFailures !== undefined ? { simLockAfterFailures: body.SimLockAfterFailures } : {}),
      ...(body.SimCooldownMinutes !== undefined ? { simCooldownMinutes: body.SimCooldownMinutes } : {}),
      ...(body.SimsKeptForSendingPercent !== undefined
        ? { simsKeptForSendingPercent: body.SimsKeptForSendingPercent }
        : {}),
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
 * Sets limits (and prices) only while both limits are still 0 (never over an admin's choice): the
 * demo's workable values. True when it set them.
 */
export async function setLimitsIfUnset(
  ctx: AppContext,
  values: Pick<Limits, 'maxBatchSendSms' | 'maxMsgPerDay'> & {
    smsPricePerSegment?: string;
    mmsPrice?: string;
  },
): Promise<boolean> {
  return ctx.db.tx(async (q) => {
    const now = await readSettingsForUpdate(q);
    if (now.max_batch_send_sms !== 0 || now.max_msg_per_day !== 0) return false;
    // Starting values, not a change by anyone: no time and no author ("by demo" read as the demo user).
    await writeSettings(q, { ...values, at: null, by: null });
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

/** How a send's messages are queued beyond the page's defaults (the API's options). */
export interface SendOptions {
  /** The caller's reference (Idempotency-Key): one campaign per reference and user. */
  clientRef?: string | null;
  /** Only this SIM sends them. */
  pinnedSimId?: string | null;
  /** Not before this time. */
  notBefore?: Date | null;
  /** Not sent after this time: still queued then, it fails as expired (SMPP's validity_period). */
  validUntil?: Date | null;
  /** An MMS: its uploaded file and subject (priced at the MMS price). */
  mms?: { file: string; title: string } | null;
  /** The request's field of the recipients, for refusals ("number" on the page, "to" in the API). */
  field?: string;
}

/** The settings a send needs, refused at once when sending is turned off. */
export async function sendingSettings(ctx: AppContext): Promise<SettingsRow> {
  const settings = await readSettings(ctx.db);
  if (settings.max_batch_send_sms === 0) throw sendingDisabled('Max Batch Send SMS');
  if (settings.max_msg_per_day === 0) throw sendingDisabled('Max Messages Per Day');
  return settings;
}

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
  const settings = await sendingSettings(ctx);
  const plan = validateMassSend(body, settings.max_batch_send_sms);
  if (!plan.ok) throw badInput(plan.error.text, plan.field);
  return ctx.db.tx((q) => queueSend(q, ctx, user, plan, settings));
}

/**
 * Queues a validated send in the caller's transaction: the one implementation behind the sending
 * page and the API. Opted-out recipients are skipped, the user's day count reserved (refused over
 * Max Messages Per Day), the campaign and one queued message per recipient stored, and the whole
 * send charged (402 when the balance does not cover it: nothing stays).
 */
export async function queueSend(
  q: Queryable,
  ctx: AppContext,
  user: AuthUser,
  plan: MassSendPlan,
  settings: SettingsRow,
  options: SendOptions = {},
): Promise<MassSendData> {
  // Numbers are digits by now; a message could still carry what no SMS (and no database) takes.
  if (plan.messages.some((m) => m.includes('\u0000') || hasLoneSurrogate(m))) {
    throw badInput(
      'The message content contains an invalid character (NUL or a lone UTF-16 surrogate).',
      'mess',
    );
  }
  const now = ctx.clock.now();
  const day = utcDay(now);
  const limit = settings.max_msg_per_day;
  const optedOut = await optedOutAmong(q, user.id, plan.recipients);
  const recipients = optedOut.size ? plan.recipients.filter((r) => !optedOut.has(r)) : plan.recipients;
  if (recipients.length === 0) {
    throw new DomainError(
      'all_opted_out',
      `Nothing to send: all ${optedOut.size} recipient${optedOut.size === 1 ? ' has' : 's have'} asked not to be messaged again (STOP).`,
      'number',
    );
  }
  // Each recipient priced by its country; one in a country not enabled refuses the whole send.
  const prices = await pricesOf(q, settings);
  const countries = recipients.map(countryOfNumber);
  const refused = disabledDestinations(prices, countries);
  if (refused.length > 0) throw countryNotEnabled(refused, options.field ?? 'number');
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
  const variantIndex = assigned.map((a) => index.get(a.text)!);
  // Each message priced by its variant's segments (the counter the page shows) at its country's
  // price; the send costs their sum. A variant and country pair is priced once.
  const unitsOf = new Map<string, number>();
  const messageUnits = variantIndex.map((vi, i) => {
    const country = countries[i] ?? null;
    const key = `${vi}:${country ?? ''}`;
    let units = unitsOf.get(key);
    if (units === undefined) {
      units = messageCostUnits(plan.messages[vi]!, prices, Boolean(options.mms), country);
      unitsOf.set(key, units);
    }
    return units;
  });
  const cost = unitsText(messageUnits.reduce((sum, u) => sum + u, 0));
  const campaignId = await insertCampaign(q, {
    userId: user.id,
    total: recipients.length,
    duplicatesRemoved: plan.duplicatesRemoved,
    skippedOptOut: optedOut.size,
    cost,
    at: now,
    clientRef: options.clientRef ?? null,
  });
  await insertCampaignMessages(q, {
    campaignId,
    userId: user.id,
    recipients,
    variantIndex,
    variants: plan.messages,
    costs: messageUnits.map(unitsText),
    at: now,
    pinnedSimId: options.pinnedSimId ?? null,
    notBefore: options.notBefore ?? null,
    validUntil: options.validUntil ?? null,
    mms: options.mms ?? null,
  });
  const balance = await chargeMessages(q, user.id, cost, `campaign:${campaignId}`, now);
  await publish(q, { type: 'campaign', userId: user.id, campaignId });
  return {
    campaignId,
    queued: recipients.length,
    duplicatesRemoved: plan.duplicatesRemoved,
    skippedOptOut: optedOut.size,
    cost: Number(cost),
    balance: Number(balance),
  };
}

/**
 * Charges messages in the caller's transaction (one ledger row); free messages write none. The
 * balance after; `balance_too_low` (402) with the cost and the balance when it does not cover it.
 */
export async function chargeMessages(
  q: Queryable,
  userId: string,
  cost: string,
  ref: string,
  at: Date,
): Promise<string> {
  if (Number(cost) === 0) return (await balanceOf(q, userId)) ?? '0.00';
  try {
    return await charge(q, { userId, amount: cost, ref, at, kind: 'message_charge' });
  } catch (e) {
    if (e instanceof DomainError && e.code === 'balance_too_low') {
      throw cannotAfford(cost, await balanceOf(q, userId));
    }
    throw e;
  }
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
    // A message the carrier took waits only for the handset's report: the send itself is over.
    finished: n.queued + n.sending + n.sentUnconfirmed === 0,
    // Said plainly on the sending page: queued messages and not one SIM that can take them.
    waitingForSim: n.queued > 0 && (await noFreeSim(ctx)),
    cost: Number(c.cost),
    refunded: Number(c.refunded),
    netCost: Number(c.net_cost),
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
  const result = await ctx.db.tx(async (q) => {
    const done = await cancelQueued(q, userId, campaignId ?? null, at);
    let cancelled = 0;
    for (const d of done) {
      cancelled += d.n;
      await releaseDaily(q, userId, d.day, d.n);
      await publish(q, { type: 'campaign', userId, campaignId: d.campaign_id });
    }
    // Cancelling may end a campaign (`campaign.finished`, once).
    await campaignsMayHaveFinished(
      q,
      ctx,
      done.map((d) => d.campaign_id),
      at,
    );
    return { cancelled };
  });
  if (result.cancelled > 0) await refundEndedMessages(ctx);
  return result;
}

/** Live stream: a campaign event sends the campaign's progress, to its owner only. */
export const renderCampaignEvent: LiveRenderer<'campaign'> = async (ctx, event) => {
  if (event.type !== 'campaign') return null;
  const c = await findCampaign(ctx.db, event.campaignId);
  if (!c || c.user_id !== event.userId) return null;
  return { event: 'campaign', data: await progressOf(ctx, c) };
};
