// SMSGate's third-party API mapped onto SimDock's messaging API: a send is one SimDock send (one
// message per recipient) under the caller's SMSGate id; its state is SMSGate's reading of those
// messages. Webhook registrations become the user's webhooks in SMSGate's format.
import { randomBytes } from 'node:crypto';
import type { SmsGateMessageState, SmsGateSendBody } from '@simdock/contract';
import type { AppContext, AuthUser } from '../../context.ts';
import { badInput, conflict, notFound } from '../../errors.ts';
import { apiSend, messagesOfSend } from '../messaging/index.ts';
import { messageState } from './state.ts';

/** An id as SMSGate makes them when the caller gives none: 21 URL-safe characters. */
const newMessageId = () => randomBytes(16).toString('base64url').slice(0, 21);

export async function smsgateSend(
  ctx: AppContext,
  user: AuthUser,
  body: SmsGateSendBody,
): Promise<SmsGateMessageState> {
  if (body.isEncrypted) {
    throw badInput('SimDock does not take end-to-end encrypted messages: send the text in clear over HTTPS.');
  }
  if (body.dataMessage !== undefined) throw badInput('SimDock does not send data SMS: send a textMessage.');
  const text = body.textMessage?.text ?? body.message;
  if (text === undefined || (body.textMessage !== undefined && body.message !== undefined)) {
    throw badInput('Give exactly one of textMessage or message.');
  }
  const id = body.id ?? newMessageId();
  if (await messagesOfSend(ctx, user.id, id)) {
    throw conflict('message with the same ID already exists');
  }
  const sent = await apiSend(ctx, user, { to: body.phoneNumbers, text }, id);
  if (sent.repeated) throw conflict('message with the same ID already exists');
  return messageState(id, sent.messages);
}

export async function smsgateMessageState(
  ctx: AppContext,
  userId: string,
  id: string,
): Promise<SmsGateMessageState> {
  const messages = await messagesOfSend(ctx, userId, id);
  if (!messages) throw notFound('message not found');
  return messageState(id, messages);
}
