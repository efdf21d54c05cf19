import { z } from 'zod';
import {
  SmsGateError,
  SmsGateHealth,
  SmsGateMessageParams,
  SmsGateMessageState,
  SmsGateSendBody,
  SmsGateWebhook,
  SmsGateWebhookBody,
  SmsGateWebhookParams,
} from '../api/smsgate-api.ts';
import { endpoint } from '../endpoint.ts';

const tag = 'SMSGate-compatible API';
const ERRORS = {
  400: SmsGateError.describe('Bad input'),
  401: SmsGateError.describe('Wrong username or API key'),
  403: SmsGateError.describe('The key lacks the scope, or the address is not allowed'),
  429: SmsGateError.describe('Over the rate limit'),
};

const send = (path: '/3rdparty/v1/message' | '/3rdparty/v1/messages') =>
  endpoint({
    method: 'POST',
    path,
    access: 'apikey',
    keyIn: 'basic',
    scope: 'messaging:send',
    tag,
    summary: 'Send a message (SMSGate `POST /message`)',
    description:
      'SMSGate’s send, served by SimDock: `{id?, textMessage: {text} | message, phoneNumbers}` with Basic auth (your SimDock username and an API key with the messaging:send scope). Answers 202 with the message state. The numbers follow SimDock’s rules (1 and 10 digits); `simNumber`, `ttl`, `validUntil`, `priority` and `withDeliveryReport` are accepted and ignored (SimDock picks the SIM); encrypted and data messages are refused. A repeated `id` answers 409.',
    body: SmsGateSendBody,
    response: { 202: SmsGateMessageState, ...ERRORS, 409: SmsGateError.describe('The id was used already') },
  });

const state = (path: '/3rdparty/v1/message/:id' | '/3rdparty/v1/messages/:id') =>
  endpoint({
    method: 'GET',
    path,
    access: 'apikey',
    keyIn: 'basic',
    scope: 'messaging:read',
    tag,
    summary: 'A message’s state (SMSGate `GET /message/{id}`)',
    params: SmsGateMessageParams,
    response: { 200: SmsGateMessageState, ...ERRORS, 404: SmsGateError.describe('Unknown message') },
  });

/** SMSGate's third-party API, for tools made for SMSGate: base URL `<SimDock>/3rdparty/v1`. */
export const smsgateApi = {
  send: send('/3rdparty/v1/message'),
  sendPlural: send('/3rdparty/v1/messages'),
  state: state('/3rdparty/v1/message/:id'),
  statePlural: state('/3rdparty/v1/messages/:id'),
  webhooks: endpoint({
    method: 'GET',
    path: '/3rdparty/v1/webhooks',
    access: 'apikey',
    keyIn: 'basic',
    scope: 'messaging:read',
    tag,
    summary: 'Webhooks registered through this API',
    response: { 200: z.array(SmsGateWebhook), ...ERRORS },
  }),
  registerWebhook: endpoint({
    method: 'POST',
    path: '/3rdparty/v1/webhooks',
    access: 'apikey',
    keyIn: 'basic',
    // A write: a key that may only read must not point the user's events at a URL of its choosing.
    scope: 'messaging:send',
    tag,
    summary: 'Register a webhook for one event (`sms:received`, `sms:sent`, `sms:delivered`, `sms:failed`)',
    description:
      'Needs the messaging:send scope (a key with only messaging:read may list webhooks, not change them). Deliveries use SMSGate’s webhook body and its `X-Signature` (hex HMAC-SHA256 of the body followed by `X-Timestamp`) keyed with the URL’s signing secret, shown on SimDock’s API Key page. The same URL may be registered for several events.',
    body: SmsGateWebhookBody,
    response: { 201: SmsGateWebhook, ...ERRORS },
  }),
  deleteWebhook: endpoint({
    method: 'DELETE',
    path: '/3rdparty/v1/webhooks/:id',
    access: 'apikey',
    keyIn: 'basic',
    scope: 'messaging:send',
    tag,
    summary: 'Remove a webhook registration',
    params: SmsGateWebhookParams,
    response: { 204: z.null(), ...ERRORS, 404: SmsGateError.describe('Unknown webhook') },
  }),
  health: endpoint({
    method: 'GET',
    path: '/3rdparty/v1/health',
    access: 'public',
    tag,
    summary: 'Health (SMSGate `GET /health`)',
    response: { 200: SmsGateHealth },
  }),
};
