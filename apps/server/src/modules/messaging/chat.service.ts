import {
  type ChatMessage,
  type Conversation,
  type ConversationFilter,
  disabledDestinations,
  hasLoneSurrogate,
  messageCost,
  messagingMessage,
  type ReplyBody,
  UP_DOWN_INCOMING,
  UP_DOWN_OUTGOING,
  type UpdateConversationBody,
} from '@simdock/contract';
import type { z } from 'zod';
import type { AppContext, AuthUser } from '../../context.ts';
import { badInput, DomainError, notFound } from '../../errors.ts';
import { publish } from '../../events.ts';
import { countryOfNumber } from '../catalogue/index.ts';
import { simSendState } from '../gateways/index.ts';
import { simsInOpenRentals } from '../rental/index.ts';
import {
  type ConversationSimRow,
  conversationWithSim,
  insertReplyMessage,
  listConversations,
  lockConversation,
  markRead,
  type ThreadRow,
  thread,
  unreadTotals,
  updateContact,
} from './chat.queries.ts';
import { ownsMedia } from './media.queries.ts';
import { dailyUsed, optedOutAmong, readSettings, reserveDaily } from './messaging.queries.ts';
import { chargeMessages, countryNotEnabled, pricesOf } from './messaging.service.ts';
import { toConversation } from './replies.service.ts';

// Two-way chat (docs/product.md): a user's conversations, the thread, the contact, and replies
// that leave through the SIM the recipient already knows (queued for the dispatcher, pinned).

const conversationNotFound = () => notFound('Conversation not found.', 'conversation_not_found');

/** Delivery as the page reads it (contract `deliveryIndicator`): 1 success, 0 fail, 2 not final. */
function deliveryStatus(status: string | null): number | null {
  if (status === null) return null;
  if (status === 'delivered') return 1;
  if (status === 'failed' || status === 'cancelled') return 0;
  return 2;
}

export function toChatMessage(r: ThreadRow): ChatMessage {
  const status = r.outgoing ? deliveryStatus(r.status) : null;
  return {
    id: r.id,
    sms: r.body,
    upDownType: r.outgoing ? UP_DOWN_OUTGOING : UP_DOWN_INCOMING,
    timestamp: Math.floor(r.at.getTime() / 1000),
    mmsFile: r.mms_file,
    status,
    result: status === 0 || status === 1 ? status : null,
    statusReason: r.status_reason,
  };
}

/** The user's conversation; another user's, or an id that is not one, is not found. */
async function ownConversation(ctx: AppContext, user: AuthUser, id: string): Promise<ConversationSimRow> {
  if (!/^\d{1,18}$/.test(id)) throw conversationNotFound();
  const c = await conversationWithSim(ctx.db, id);
  if (!c || c.user_id !== user.id) throw conversationNotFound();
  return c;
}

function cleanText(text: string, field: string): string {
  if (text.includes('\u0000') || hasLoneSurrogate(text)) {
    throw badInput('The text contains an invalid character (NUL or a lone UTF-16 surrogate).', field);
  }
  return text;
}

/** The chat list (unread replies first, then newest first), narrowed by the filter. */
export async function queryConversations(
  ctx: AppContext,
  user: AuthUser,
  filter: ConversationFilter = 'all',
): Promise<Conversation[]> {
  return (await listConversations(ctx.db, user.id, filter)).map(toConversation);
}

/** The Chat badge: conversations with unread replies (what a mail inbox counts), and the replies. */
export function unreadCount(
  ctx: AppContext,
  user: AuthUser,
): Promise<{ conversations: number; replies: number }> {
  return unreadTotals(ctx.db, user.id);
}

/**
 * The thread, oldest first; opening it marks it read (and tells the user's other pages). `pictures`:
 * whether a reply may carry a picture: false when the conversation's SIM is in a phone (SMSGate sends
 * no MMS), so the page says so before anything is uploaded.
 */
export async function conversationDetail(
  ctx: AppContext,
  user: AuthUser,
  conversationId: string,
): Promise<{ msgList: ChatMessage[]; pictures: boolean }> {
  const c = await ownConversation(ctx, user, conversationId);
  const sim = c.sim_id ? await simSendState(ctx.db, c.sim_id, ctx.clock.now()) : undefined;
  if (c.unread_count > 0) {
    await ctx.db.tx(async (q) => {
      if (await markRead(q, c.id)) {
        await publish(q, { type: 'conversation', userId: user.id, conversationId: c.id });
      }
    });
  }
  return { msgList: (await thread(ctx.db, c.id)).map(toChatMessage), pictures: sim?.sendsMms ?? true };
}

export async function updateConversation(
  ctx: AppContext,
  user: AuthUser,
  body: z.output<typeof UpdateConversationBody>,
): Promise<Conversation> {
  const c = await ownConversation(ctx, user, body.conversationId);
  const name = cleanText(body.contactName, 'contactName');
  const note = cleanText(body.note, 'note');
  return ctx.db.tx(async (q) => {
    const row = await updateContact(q, c.id, name, note);
    if (!row) throw conversationNotFound();
    await publish(q, { type: 'conversation', userId: user.id, conversationId: c.id });
    return toConversation(row);
  });
}

const simGone = (what: string) =>
  new DomainError(
    'sim_unavailable',
    `Cannot reply: ${what}. Replies leave only from the number this contact knows, so nothing was sent.`,
  );

/** Refuses clearly when the conversation's SIM cannot send now (or cannot send an MMS); its id when it can. */
async function stickySim(ctx: AppContext, c: ConversationSimRow, now: Date, mms: boolean): Promise<string> {
  if (!c.sim_id)
    throw simGone('no SIM has sent a message to this number yet, so there is no number to reply from');
  const sim = await simSendState(ctx.db, c.sim_id, now);
  if (!sim)
    throw simGone(`the SIM this conversation used (port ${c.port ?? '?'}) or its gateway was removed`);
  const where = `the SIM in port ${sim.port} of gateway "${sim.gateway_name}"`;
  if (!sim.gateway_enabled) throw simGone(`${where} cannot send: the gateway is disabled`);
  if (!sim.online) throw simGone(`${where} cannot send: the gateway is offline`);
  if (sim.locked) throw simGone(`${where} cannot send: SIM locked (${sim.lock_reason ?? 'no reason given'})`);
  if (!sim.usable || !sim.active)
    throw simGone(`${where} cannot send: the SIM is not registered or not the active slot`);
  if (sim.role === 'rental') throw simGone(`${where} is reserved for rentals by an administrator`);
  if (mms && !sim.sendsMms) {
    // Plain words for the user: the device's kind, not its gateway and port.
    throw new DomainError(
      'mms_not_supported',
      'This conversation goes through a phone, which cannot send pictures. Send the text without the picture.',
    );
  }
  if (sim.at_cap) {
    throw simGone(
      `${where} reached its ${sim.at_cap === 'day' ? 'daily' : 'monthly'} sending cap; try again ${sim.at_cap === 'day' ? 'tomorrow' : 'next month'} (UTC)`,
    );
  }
  if ((await simsInOpenRentals(ctx.db, now)).includes(sim.id)) {
    throw simGone(`${where} is reserved for a rental order right now; try again when it ends`);
  }
  return sim.id;
}

const utcDay = (d: Date) => d.toISOString().slice(0, 10);

/**
 * A reply (docs/product.md#calls): queued pinned to the conversation's SIM (the dispatcher keeps its rate
 * limit and exactly-once task ids); opt-outs and the daily limit apply as for bulk sending.
 */
export async function reply(
  ctx: AppContext,
  user: AuthUser,
  body: z.output<typeof ReplyBody>,
): Promise<ChatMessage> {
  const c = await ownConversation(ctx, user, body.conversationId);
  const text = cleanText(body.sms, 'sms');
  const title = cleanText(body.mmsTitle.trim(), 'mmsTitle');
  const toDigits = body.toNumber.replace(/\D/g, '');
  if (toDigits !== '' && toDigits !== c.receiver.replace(/\D/g, '') && `1${toDigits}` !== c.receiver) {
    throw badInput('toNumber is not the number of this conversation.', 'toNumber');
  }
  const file = body.mmsFile === '' ? null : body.mmsFile;
  if (file && !(await ownsMedia(ctx.db, user.id, file))) {
    throw notFound('The attached file was not found; please attach it again.', 'media_not_found');
  }
  const now = ctx.clock.now();
  const simId = await stickySim(ctx, c, now, file !== null);
  const settings = await readSettings(ctx.db);
  const limit = settings.max_msg_per_day;
  if (limit === 0) {
    throw new DomainError(
      'sending_disabled',
      'Sending is turned off: an administrator has set Max Messages Per Day to 0. Ask an administrator to raise it.',
    );
  }
  const country = countryOfNumber(c.receiver);
  return ctx.db.tx(async (q) => {
    // Priced by the contact's country, as a bulk send is; a country not enabled is refused.
    const prices = await pricesOf(q, settings);
    const refused = disabledDestinations(prices, [country]);
    if (refused.length > 0) throw countryNotEnabled(refused);
    const cost = messageCost(text, prices, file !== null, country);
    const locked = await lockConversation(q, c.id);
    if (!locked || locked.user_id !== user.id) throw conversationNotFound();
    if (locked.sim_id !== simId)
      throw simGone('the conversation moved to another SIM meanwhile; please try again');
    if ((await optedOutAmong(q, user.id, [c.receiver])).size > 0) {
      throw new DomainError(
        'opted_out',
        'This contact has opted out (they replied STOP), so no message can be sent to them. They can opt back in by replying START.',
      );
    }
    const day = utcDay(now);
    if ((await reserveDaily(q, user.id, day, 1, limit)) === undefined) {
      const remaining = Math.max(0, limit - (await dailyUsed(q, user.id, day)));
      throw new DomainError(
        'daily_limit_reached',
        messagingMessage('dailyLimitReached', { limit, remaining }).text,
      );
    }
    const row = await insertReplyMessage(q, {
      userId: user.id,
      conversationId: c.id,
      recipient: c.receiver,
      body: text,
      simId,
      mmsFile: file,
      mmsTitle: file ? title : null,
      latest: text.trim() !== '' ? text : '[MMS]',
      cost,
      at: now,
    });
    // Charged as a send is: by its segments, or at the MMS price; refunded if it ends failed.
    await chargeMessages(q, user.id, cost, `message:${row.id.slice(1)}`, now);
    await publish(q, { type: 'conversation', userId: user.id, conversationId: c.id });
    return toChatMessage(row);
  });
}
