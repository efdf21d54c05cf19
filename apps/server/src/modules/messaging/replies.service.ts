import type { Conversation } from '@simdock/contract';
import type { LiveRenderer, SmsConsumer } from '../../context.ts';
import { publish } from '../../events.ts';
import { storeIncomingMedia } from './media.service.ts';
import { campaignsMayHaveFinished, emitMessageEvents } from './message-events.service.ts';
import { addOptOut, removeOptOut } from './messaging.queries.ts';
import {
  type ConversationRow,
  cancelQueuedTo,
  findConversation,
  insertReply,
  latestMessageFromSimTo,
  markReplied,
  noteIncoming,
  setReplyMedia,
} from './replies.queries.ts';

// Incoming SMS from a recipient to a SIM that wrote to them: a reply in that conversation, and
// the opt-out keywords (STOP …, START …). Registered after rental's consumer: an SMS that
// completes an order never gets here.

const STOP_WORDS = new Set(['STOP', 'STOP ALL', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT']);
const START_WORDS = new Set(['START', 'UNSTOP']);

/** 'stop' / 'start' when the whole message is one of the keywords (any case, trailing punctuation). */
export function optKeyword(text: string): 'stop' | 'start' | null {
  if (text.length > 40) return null;
  const word = text
    .trim()
    .replace(/[\s.!]+$/u, '')
    .replace(/\s+/gu, ' ')
    .toUpperCase();
  if (STOP_WORDS.has(word)) return 'stop';
  if (START_WORDS.has(word)) return 'start';
  return null;
}

/** A sender as the recipients were written (1 + 10 digits): "+1 (555) 123-4567" → "15551234567". */
export function normalizeSender(sender: string): string | null {
  if (sender.length > 32) return null;
  const digits = sender.replace(/\D/g, '');
  if (digits.length === 10) return `1${digits}`;
  if (digits.length === 11 && digits.startsWith('1')) return digits;
  return null;
}

/**
 * SMS consumer: an SMS from a number one of our SIMs wrote to, on that SIM, after the message went
 * out, is a reply in that message's conversation (unread). The latest such message decides the
 * conversation when several users wrote to the number from the same SIM.
 */
export const consumeReply: SmsConsumer = async (q, sms, ctx) => {
  if (!sms.simId) return false;
  const from = normalizeSender(sms.sender);
  if (!from) return false;
  const msg = await latestMessageFromSimTo(q, from, sms.simId, sms.receivedAt);
  if (!msg) return false;
  const stored = await insertReply(q, {
    conversationId: msg.conversation_id,
    userId: msg.user_id,
    messageId: msg.id,
    smsId: sms.id,
    sender: from,
    body: sms.text,
    simId: sms.simId,
    gatewayId: sms.gatewayId,
    port: sms.port,
    at: sms.receivedAt,
  });
  if (!stored) return true;
  // An incoming MMS: its first picture or video that passes the upload checks is kept and shown.
  for (const a of sms.attachments ?? []) {
    const name = await storeIncomingMedia(q, msg.user_id, a.data, sms.receivedAt);
    if (name) {
      await setReplyMedia(q, stored, name);
      break;
    }
  }
  await noteIncoming(q, msg.conversation_id, sms.text, sms.receivedAt);
  await markReplied(q, msg.id, sms.receivedAt);
  await emitMessageEvents(q, ctx, [
    {
      type: 'message.received',
      userId: msg.user_id,
      messageId: `i${stored}`,
      conversationId: msg.conversation_id,
      direction: 'in',
      phoneNumber: from,
      simNumber: sms.simNumber ?? null,
      text: sms.text,
      status: 'received',
      at: sms.receivedAt,
    },
  ]);
  const keyword = optKeyword(sms.text);
  if (keyword === 'stop') {
    await addOptOut(q, msg.user_id, from, sms.receivedAt);
    const cancelled = await cancelQueuedTo(q, msg.user_id, from, sms.receivedAt);
    for (const campaignId of cancelled) {
      await publish(q, { type: 'campaign', userId: msg.user_id, campaignId });
    }
    // The cancelled messages may have been a campaign's last ones.
    await campaignsMayHaveFinished(q, ctx, cancelled, sms.receivedAt);
  } else if (keyword === 'start') {
    await removeOptOut(q, msg.user_id, from);
  }
  await publish(q, { type: 'conversation', userId: msg.user_id, conversationId: msg.conversation_id });
  return true;
};

export function toConversation(r: ConversationRow): Conversation {
  return {
    conversationId: r.id,
    receiver: r.receiver,
    contactName: r.contact_name,
    note: r.note,
    latestSms: r.latest_sms,
    latestTime: Math.floor(r.latest_time.getTime() / 1000),
    isRead: r.unread_count === 0,
    unreadCount: r.unread_count,
  };
}

/** Live stream: a conversation event sends the conversation as it is now, to its owner only. */
export const renderConversationEvent: LiveRenderer<'conversation'> = async (ctx, event) => {
  if (event.type !== 'conversation') return null;
  const c = await findConversation(ctx.db, event.conversationId);
  if (!c || c.user_id !== event.userId) return null;
  return { event: 'conversation', data: toConversation(c) };
};
