import { ErrorBody } from '../api/common.ts';
import {
  ApiConversationsQuery,
  ApiConversationsResponse,
  ApiMediaResponse,
  ApiMessageParams,
  ApiMessageResponse,
  ApiMessagesQuery,
  ApiMessagesResponse,
  ApiSendBody,
  ApiSendResponse,
  ApiSimsResponse,
} from '../api/message-api.ts';
import { IdempotencyHeaders } from '../api/orders.ts';
import { endpoint } from '../endpoint.ts';

const ERRORS = {
  400: ErrorBody.describe('Bad input'),
  401: ErrorBody.describe('Missing, invalid or expired API key, or inactive account'),
  403: ErrorBody.describe(
    'The key lacks the scope, or the call comes from an address the key does not allow',
  ),
  429: ErrorBody.describe('Over the rate limit (see Retry-After)'),
};
const tag = 'messaging API v1';
const notFound = { 404: ErrorBody.describe('Not found (or another user’s)') };

/** Send and read SMS/MMS with an API key: the sending page's rules, limits, prices and queue. */
export const messageApi = {
  send: endpoint({
    method: 'POST',
    path: '/api/v1/messages',
    access: 'apikey',
    scope: 'messaging:send',
    tag,
    summary: 'Send a message to one or more numbers',
    description:
      'Queues one message per recipient, with the rules of the sending page (numbers as 1 and 10 digits, duplicates dropped, opted-out numbers skipped, Max Batch Send SMS per request, Max Messages Per Day) and its prices (per SMS segment; an MMS at the MMS price; each at the prices of the recipient’s country when the operator set them), charged at once and given back if a message finally fails. `simId` pins the messages to one of your SIMs (GET /api/v1/sims); `sendAt` delays them. Send an `Idempotency-Key` header: a retry with the same key answers the first send (`repeated: true`) and sends nothing again. Refusals: 402 `balance_too_low`, 409 `daily_limit_reached`, `all_opted_out`, `sending_disabled`, `sim_unavailable`, `country_not_enabled` (a recipient’s country is not enabled: nothing is sent, the message names the countries).\n\nExample: `curl -X POST -H "Authorization: Bearer $KEY" -H "Idempotency-Key: $(uuidgen)" -H "content-type: application/json" -d \'{"to":"12025550123","text":"Hello"}\' https://HOST/api/v1/messages`',
    body: ApiSendBody,
    headers: IdempotencyHeaders,
    response: {
      200: ApiSendResponse,
      ...ERRORS,
      402: ErrorBody.describe('Balance too low'),
      409: ErrorBody.describe(
        'Daily limit, all opted out, sending disabled, SIM unavailable, country not enabled',
      ),
    },
  }),
  media: endpoint({
    method: 'POST',
    path: '/api/v1/media',
    access: 'apikey',
    scope: 'messaging:send',
    tag,
    summary: 'Upload an MMS file (multipart/form-data, field `file`)',
    description:
      'JPEG, PNG, GIF, WebP or MP4, at most 5 MB, checked by its content. Answers the `mediaId` to send with POST /api/v1/messages. Unused files are removed after a day.',
    response: { 200: ApiMediaResponse, ...ERRORS, 413: ErrorBody.describe('File too large') },
  }),
  message: endpoint({
    method: 'GET',
    path: '/api/v1/messages/:id',
    access: 'apikey',
    scope: 'messaging:read',
    tag,
    summary: 'One message (sent `o…` or received `i…`) and its state',
    params: ApiMessageParams,
    response: { 200: ApiMessageResponse, ...ERRORS, ...notFound },
  }),
  messages: endpoint({
    method: 'GET',
    path: '/api/v1/messages',
    access: 'apikey',
    scope: 'messaging:read',
    tag,
    summary: 'Your messages, sent and received, newest first',
    query: ApiMessagesQuery,
    response: { 200: ApiMessagesResponse, ...ERRORS },
  }),
  cancel: endpoint({
    method: 'POST',
    path: '/api/v1/messages/:id/cancel',
    access: 'apikey',
    scope: 'messaging:send',
    tag,
    summary: 'Cancel a message no device has taken yet (its cost is given back)',
    description:
      '409 `message_not_cancellable` once a device has it (sent, delivered, failed) or for a received message.',
    params: ApiMessageParams,
    response: { 200: ApiMessageResponse, ...ERRORS, ...notFound, 409: ErrorBody.describe('Not cancellable') },
  }),
  conversations: endpoint({
    method: 'GET',
    path: '/api/v1/conversations',
    access: 'apikey',
    scope: 'messaging:read',
    tag,
    summary: 'Your conversations (one per number), newest first',
    query: ApiConversationsQuery,
    response: { 200: ApiConversationsResponse, ...ERRORS },
  }),
  sims: endpoint({
    method: 'GET',
    path: '/api/v1/sims',
    access: 'apikey',
    scope: 'messaging:send',
    tag,
    summary: 'The SIMs you may send from (for simId)',
    response: { 200: ApiSimsResponse, ...ERRORS },
  }),
};
