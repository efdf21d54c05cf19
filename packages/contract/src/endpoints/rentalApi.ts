import { z } from 'zod';
import {
  ApiBalanceResponse,
  ApiCreateOrderBody,
  ApiLedgerResponse,
  ApiListQuery,
  ApiOrderParams,
  ApiOrderResponse,
  ApiOrdersQuery,
  ApiOrdersResponse,
  ApiServicesQuery,
  ApiServicesResponse,
} from '../api/apikey.ts';
import { ErrorBody } from '../api/common.ts';
import { IdempotencyHeaders } from '../api/orders.ts';
import { endpoint } from '../endpoint.ts';

// Each parameter is text; one given more than once (or as `name[]`) arrives as a list, which the
// handler answers with that parameter's token.
const p = (description: string, example?: string) =>
  z
    .union([z.string(), z.array(z.string())])
    .optional()
    .meta({ description, ...(example !== undefined ? { example } : {}) });

/** The SMS-Activate handler's parameters, documented (every one is read as text; unknown ones are ignored). */
export const HandlerQuery = z
  .object({
    api_key: p('Your API key (from the API Key page).', 'sd_…'),
    action: p('The action, see the table above.', 'getNumber'),
    service: p('Service code (getNumber, getNumberV2, getPrices, getTopCountriesByService).', 'tg'),
    country: p(
      'Country id (getCountries lists those with numbers; SMS-Activate numbering, 187 = USA). Without one: any country, the cheapest first.',
      '187',
    ),
    maxPrice: p('getNumber: refuse when the price is above this (WRONG_MAX_PRICE:<price>).', '1.00'),
    operator: p('Operator name from getOperators (`any`: every operator).', 'any'),
    id: p('Activation id (the numeric order id).', '42'),
    status: p('setStatus: 1 ready, 3 another SMS, 6 finish, 8 (or -1) cancel.', '6'),
    start: p('getActiveActivations: offset; getHistory: from (unix seconds).'),
    limit: p('getActiveActivations: at most 100.'),
    end: p('getHistory: to (unix seconds).'),
    offset: p('getHistory: offset.'),
    size: p('getHistory: page size, at most 100.'),
    freePrice: p('getTopCountriesByService: add freePriceMap.', 'true'),
  })
  .loose();

const ERRORS = {
  400: ErrorBody.describe('Bad input'),
  401: ErrorBody.describe('Missing, invalid or expired API key, or inactive account'),
  403: ErrorBody.describe(
    'The key lacks the `rental` scope, or may not be used from the caller’s address (the reason is in `msg`)',
  ),
  429: ErrorBody.describe('Over the rate limit (see Retry-After)'),
};
const tag = 'rental API v1';

/** An order action of /api/v1: POST /api/v1/orders/:id/<action>, answering the order. */
const orderAction = <const P extends string>(path: P, summary: string, description: string) =>
  endpoint({
    method: 'POST',
    path: `/api/v1/orders/:id/${path}`,
    access: 'apikey',
    scope: 'rental',
    tag,
    summary,
    description,
    params: ApiOrderParams,
    response: {
      200: ApiOrderResponse,
      ...ERRORS,
      404: ErrorBody.describe('Order not found'),
      409: ErrorBody.describe('Not possible in the order’s state'),
    },
  });

/**
 * The rental API for programs, with the user's API key: the SMS-Activate-compatible handler (key in
 * the `api_key` parameter; its long description is the server's) and the REST API /api/v1
 * (`Authorization: Bearer <api key>`).
 */
export const rentalApi = {
  /** GET or POST; parameters in the query string or a form or JSON body; plain-text token answers. */
  handler: endpoint({
    method: ['GET', 'POST'],
    path: '/stubs/handler_api.php',
    access: 'apikey',
    scope: 'rental',
    keyIn: 'param',
    tag: 'SMS-Activate handler',
    summary: 'SMS-Activate-compatible handler (all actions)',
    query: HandlerQuery,
  }),
  services: endpoint({
    method: 'GET',
    path: '/api/v1/services',
    access: 'apikey',
    scope: 'rental',
    tag,
    summary: 'Services with price and live availability (of one country with `country`)',
    query: ApiServicesQuery,
    response: { 200: ApiServicesResponse, ...ERRORS },
  }),
  /** Send an `Idempotency-Key` header (the server validates and documents it). */
  createOrder: endpoint({
    method: 'POST',
    path: '/api/v1/orders',
    access: 'apikey',
    scope: 'rental',
    tag,
    summary: 'Rent a number',
    description:
      'Charges the service price and returns the order. Send an `Idempotency-Key` header (any unique text per rent): a retried request with the same key returns the first order and never buys twice. Refusals: 402 `balance_too_low`, 404 `service_not_found`, 409 `no_numbers` / `service_disabled` / `price_above_max`.\n\nExample: `curl -X POST -H "Authorization: Bearer $KEY" -H "Idempotency-Key: $(uuidgen)" -H "content-type: application/json" -d \'{"service":"tg"}\' https://HOST/api/v1/orders`',
    body: ApiCreateOrderBody,
    headers: IdempotencyHeaders,
    response: {
      200: ApiOrderResponse,
      ...ERRORS,
      402: ErrorBody.describe('Balance too low'),
      409: ErrorBody.describe('No numbers / price above max'),
    },
  }),
  orders: endpoint({
    method: 'GET',
    path: '/api/v1/orders',
    access: 'apikey',
    scope: 'rental',
    tag,
    summary: 'Your orders, newest first',
    query: ApiOrdersQuery,
    response: { 200: ApiOrdersResponse, ...ERRORS },
  }),
  order: endpoint({
    method: 'GET',
    path: '/api/v1/orders/:id',
    access: 'apikey',
    scope: 'rental',
    tag,
    summary: 'One order: status, codes and full SMS texts',
    params: ApiOrderParams,
    response: { 200: ApiOrderResponse, ...ERRORS, 404: ErrorBody.describe('Order not found') },
  }),
  cancelOrder: orderAction(
    'cancel',
    'Cancel and refund an order without a code',
    'Refused with 409 `cancel_too_early` in the first minutes (see `cancelableAt`), `order_has_code` after a code, `order_already_cancelled`; 429 `cancel_limit_reached` (with Retry-After) once the user cancelled RENTAL_CANCELS_PER_HOUR rentals in the last hour.',
  ),
  finishOrder: orderAction(
    'finish',
    'Finish an order whose code arrived',
    'The order takes no more codes. 409 `order_no_code` before a code (cancel instead).',
  ),
  anotherSms: orderAction(
    'another-sms',
    'Ask for another SMS on the same number (repeatable services)',
    'Free. The order then shows `waitingForAnotherSms: true` until the next code arrives. 409 `order_not_repeatable`, `order_no_code`, `order_closed`.',
  ),
  balance: endpoint({
    method: 'GET',
    path: '/api/v1/balance',
    access: 'apikey',
    scope: 'rental',
    tag,
    summary: 'Your balance (USD)',
    response: { 200: ApiBalanceResponse, ...ERRORS },
  }),
  ledger: endpoint({
    method: 'GET',
    path: '/api/v1/ledger',
    access: 'apikey',
    scope: 'rental',
    tag,
    summary: 'Your money movements, newest first (charges negative)',
    description:
      'Kinds: `order_charge` (ref `order:<id>`), `refund` (ref `order:<id>`), `message_charge` (ref `campaign:<id>` or `message:<id>`), `message_refund` (ref `campaign:<id>:messages:<first>-<last>` or `messages:<first>-<last>`: messages that failed or were cancelled, in batches), `topup`, `admin_adjustment`, `demo_credit`. Amounts have up to 4 decimals (message prices). The balance is the sum of the ledger.',
    query: ApiListQuery,
    response: { 200: ApiLedgerResponse, ...ERRORS },
  }),
};
