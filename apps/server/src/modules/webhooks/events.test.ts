import { createHmac } from 'node:crypto';
import { MessageEventBody } from '@simdock/contract';
import { describe, expect, it } from 'vitest';
import type { MessageEvent } from '../../context.ts';
import {
  eventIdOf,
  eventsOfFormat,
  messageEventBody,
  queuedEvent,
  refOf,
  signSmsgate,
  smsgateBody,
  smsgatePing,
} from './events.ts';
import { requestOf } from './webhooks.service.ts';

// The webhook bodies and signatures as pure functions.

const at = new Date('2026-05-01T10:00:00.000Z');
const sent: MessageEvent = {
  type: 'message.sent',
  userId: 'u1',
  messageId: 'o42',
  campaignId: '7',
  campaignRef: null,
  conversationId: '9',
  direction: 'out',
  phoneNumber: '15550001111',
  simNumber: null,
  text: 'Hello',
  status: 'sent',
  reason: null,
  at,
};

describe('event ids and refs', () => {
  it('one id per event: stable, the same for every URL, different per event', () => {
    expect(eventIdOf('message.sent:o42')).toMatch(/^evt_[0-9a-f]{24}$/);
    expect(eventIdOf('message.sent:o42')).toBe(eventIdOf('message.sent:o42'));
    expect(eventIdOf('message.delivered:o42')).not.toBe(eventIdOf('message.sent:o42'));
    expect(refOf(sent)).toBe('message.sent:o42');
    expect(refOf({ type: 'campaign.finished', userId: 'u1', campaignId: '7', at })).toBe(
      'campaign.finished:7',
    );
  });

  it('a queued event: its body carries the id; an outgoing message orders by itself, a reply by nothing', () => {
    const q = queuedEvent(sent);
    expect(q).toMatchObject({ event: 'message.sent', ref: 'message.sent:o42', orderKey: 'o42' });
    expect(JSON.parse(q.body).id).toBe(q.eventId);
    expect(
      queuedEvent({ ...sent, type: 'message.received', direction: 'in', messageId: 'i5' }).orderKey,
    ).toBe(null);
  });
});

describe('SimDock bodies', () => {
  it('a message event and a campaign end, valid for the contract', () => {
    const body = messageEventBody(sent, 'evt_x');
    expect(body).toEqual({
      id: 'evt_x',
      event: 'message.sent',
      createdAt: at.toISOString(),
      data: {
        messageId: 'o42',
        campaignId: '7',
        campaignRef: null,
        conversationId: '9',
        direction: 'out',
        phoneNumber: '15550001111',
        simNumber: null,
        text: 'Hello',
        status: 'sent',
        reason: null,
      },
    });
    expect(MessageEventBody.safeParse(body).success).toBe(true);
    const finished = messageEventBody(
      {
        type: 'campaign.finished',
        userId: 'u1',
        campaignId: '7',
        campaignRef: 'my-ref',
        counts: { delivered: 3, failed: 1, cancelled: 2 },
        at,
      },
      'evt_y',
    );
    expect(finished.data).toEqual({
      campaignId: '7',
      campaignRef: 'my-ref',
      delivered: 3,
      failed: 1,
      cancelled: 2,
    });
    expect(MessageEventBody.safeParse(finished).success).toBe(true);
  });
});

describe('SMSGate bodies', () => {
  it('maps each message event to its SMSGate event and payload', () => {
    const s = JSON.parse(smsgateBody(messageEventBody(sent, 'evt_1'), 'hook-1')!);
    expect(s).toEqual({
      deviceId: 'simdock',
      event: 'sms:sent',
      id: 'evt_1',
      webhookId: 'hook-1',
      payload: {
        messageId: 'c7',
        sender: null,
        recipient: '+15550001111',
        phoneNumber: '+15550001111',
        simNumber: null,
        partsCount: 1,
        sentAt: at.toISOString(),
      },
    });
    const withRef = { ...sent, type: 'message.failed' as const, campaignRef: 'batch-9', reason: 'No signal' };
    expect(JSON.parse(smsgateBody(messageEventBody(withRef, 'evt_2'), 'h')!).payload).toMatchObject({
      messageId: 'batch-9',
      failedAt: at.toISOString(),
      reason: 'No signal',
    });
    const chat = { ...sent, type: 'message.delivered' as const, campaignId: null };
    expect(JSON.parse(smsgateBody(messageEventBody(chat, 'evt_3'), 'h')!).payload).toMatchObject({
      messageId: 'o42',
      deliveredAt: at.toISOString(),
    });
    const received: MessageEvent = {
      ...sent,
      type: 'message.received',
      messageId: 'i5',
      campaignId: null,
      direction: 'in',
      simNumber: '15559990000',
      text: 'Who is this?',
      status: 'received',
    };
    expect(JSON.parse(smsgateBody(messageEventBody(received, 'evt_4'), 'h')!)).toMatchObject({
      event: 'sms:received',
      payload: {
        messageId: 'i5',
        message: 'Who is this?',
        sender: '+15550001111',
        recipient: '+15559990000',
        receivedAt: at.toISOString(),
      },
    });
    const finished = messageEventBody({ type: 'campaign.finished', userId: 'u', campaignId: '7', at }, 'e');
    expect(smsgateBody(finished, 'h')).toBeNull();
  });

  it('signs body + timestamp (SMSGate) and writes the request of each format', () => {
    const body = '{"a":1}';
    expect(signSmsgate('key', 1700000000, body)).toBe(
      createHmac('sha256', 'key').update(`${body}1700000000`).digest('hex'),
    );
    const stored = JSON.stringify(messageEventBody(sent, 'evt_1'));
    const d = { id: '5', event: 'message.sent', event_id: 'evt_1', body: stored, webhook_ref: 'hook-1' };
    const gate = requestOf({ ...d, format: 'smsgate' }, 'key', 1700000000)!;
    expect(gate.headers['x-signature']).toBe(signSmsgate('key', 1700000000, gate.body));
    expect(gate.headers['x-timestamp']).toBe('1700000000');
    expect(JSON.parse(gate.body).event).toBe('sms:sent');
    const own = requestOf({ ...d, format: 'simdock' }, 'key', 1700000000)!;
    expect(own.body).toBe(stored);
    expect(own.headers).toMatchObject({
      'x-simdock-event': 'message.sent',
      'x-simdock-event-id': 'evt_1',
      'x-simdock-delivery': '5',
    });
    expect(requestOf({ ...d, event: 'test', format: 'smsgate' }, 'key', 1)!.body).toBe(
      smsgatePing('evt_1', 'hook-1'),
    );
    expect(
      requestOf(
        { ...d, event: 'code.received', body: '{"event":"code.received"}', format: 'smsgate' },
        'k',
        1,
      ),
    ).toBe(null);
    expect(eventsOfFormat('smsgate')).toEqual([
      'message.received',
      'message.sent',
      'message.delivered',
      'message.failed',
    ]);
  });
});
