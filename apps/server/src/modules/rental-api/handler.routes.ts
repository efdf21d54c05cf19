import { endpoints } from '@simdock/contract';
import type { FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { DomainError } from '../../errors.ts';
import { currentUser, route } from '../../http/route.ts';
import type { App } from '../../http/types.ts';
import { type Answer, type Params, refusal, runAction } from './handler.service.ts';

export const HANDLER_PATH = endpoints.rentalApi.handler.path;
/** Largest body the handler reads (its parameters are a few short values). */
const BODY_LIMIT = 64 * 1024;

function send(reply: FastifyReply, a: Answer) {
  if ('empty' in a) return reply.status(204).send();
  if ('json' in a) {
    return reply.status(a.status).type('application/json; charset=utf-8').send(JSON.stringify(a.json));
  }
  return reply.status(a.status).type('text/plain; charset=utf-8').send(a.text);
}

/** A JSON body's object, or nothing when it is not one (malformed, or nested too deeply to be parameters). */
export function lenientJson(text: string): Record<string, unknown> | undefined {
  // Parameters are flat: anything deeply nested is not a request this handler reads.
  if (/^\s*[[{]/.test(text) && /(?:[[{][^[\]{}]*){9}/.test(text)) return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The value a parameter given more than once gets (repeated, `name[]`, a JSON array): a value no
 * parameter rule accepts (it holds a NUL), so each action answers it with its own token (BAD_ACTION,
 * BAD_SERVICE, NO_ACTIVATION, BAD_STATUS, WRONG_MAX_PRICE…) and paging reads it as absent. Taking one
 * of the values instead would let `service[]=tg&service[]=wa` rent a number nobody asked for.
 */
export const REPEATED = '\u0000repeated';

/** The form body's parameters; a name given more than once keeps all its values (an array). */
function formParams(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const had = out[k];
    out[k] = had === undefined ? v : [had, v].flat();
  }
  return out;
}

/**
 * The parameters, from the query string and a form or JSON body; the query wins. A parameter given
 * more than once, as `name[]` or as an array is REPEATED; objects and other types are absent.
 */
export function params(query: unknown, body: unknown): Params {
  const out: Params = {};
  for (const source of [body, query]) {
    if (!source || typeof source !== 'object' || Array.isArray(source)) continue;
    for (const [k, v] of Object.entries(source as Record<string, unknown>)) {
      const name = k.endsWith('[]') ? k.slice(0, -2) : k;
      if (Array.isArray(v) || name !== k) out[name] = REPEATED;
      else if (typeof v === 'string' || typeof v === 'number') out[name] = String(v);
    }
  }
  return out;
}

const DESCRIPTION = `SMS-Activate-compatible handler: point any SMS-Activate / HeroSMS client at
\`<this server>${HANDLER_PATH}\`. GET or POST; parameters in the query string or a form
(\`application/x-www-form-urlencoded\`) or JSON body. Classic answers are plain-text tokens with
HTTP 200 and no trailing whitespace; activation ids are numbers; phone numbers have no \`+\`.
Money is USD (currency 840).

| action | parameters | answer (example) |
|---|---|---|
| getBalance | – | \`ACCESS_BALANCE:12.50\` |
| getBalanceAndCashBack | – | \`ACCESS_BALANCE:12.50\` |
| getNumber | service, country?, maxPrice? | \`ACCESS_NUMBER:42:15550000001\` |
| getNumberV2 | service, country?, maxPrice? | \`{"activationId":42,"phoneNumber":"15550000001","activationCost":0.5,"currency":840,"countryCode":187,"countryPhoneCode":1,"canGetAnotherSms":false,"activationTime":"2026-01-02 10:00:00","activationEndTime":"2026-01-02 10:20:00","activationOperator":"any"}\` |
| setStatus | id, status=1 | \`ACCESS_READY\` (order waiting for a code) |
| setStatus | id, status=3 | \`ACCESS_RETRY_GET\` (repeatable service, after a code: wait for another) |
| setStatus | id, status=6 | \`ACCESS_ACTIVATION\` (finish; needs a code) |
| setStatus | id, status=8 or -1 | \`ACCESS_CANCEL\` (refund; no code yet, after the minimum time) |
| getStatus | id | \`STATUS_WAIT_CODE\`, \`STATUS_WAIT_RETRY:12345\`, \`STATUS_OK:12345\`, \`STATUS_CANCEL\` |
| getStatusV2 | id | \`{"verificationType":0,"sms":{"dateTime":"2026-01-02 10:01:00","code":"12345","text":"Your code 12345"},"call":null}\` (STATUS_CANCEL when cancelled) |
| getFullSms | id | \`FULL_SMS:Your code 12345\` (or the getStatus token while there is none) |
| getActiveActivations | start?, limit? | \`{"status":"success","activeActivations":[…],"data":[…]}\` or \`NO_ACTIVATIONS\` |
| getHistory | start?, end?, offset?, size? | \`[{"id":42,"date":"2026-01-02 10:00:00","phone":"15550000001","sms":"…","cost":0.5,"status":"6","currency":840}]\` |
| getPrices | service?, country? | \`{"187":{"tg":{"cost":0.5,"count":3,"physicalCount":3}}}\` |
| getNumbersStatus | country? | \`{"tg_0":3}\` |
| getTopCountriesByService | service?, freePrice? | \`{"0":{"country":187,"count":3,"price":0.5,"retail_price":0.5}}\` |
| getCountries | – | \`{"187":{"id":187,"rus":"USA","eng":"USA","chn":"USA","visible":1,"retry":1,"rent":0,"multiService":0}}\` |
| getServicesList | – | \`{"status":"success","services":[{"code":"tg","name":"Telegram"}]}\` |
| getOperators | country? | \`{"status":"success","countryOperators":{"187":["any"]}}\` |
| finishActivation | id | HTTP 204, empty (errors: 404/409 \`{"title":"BAD_STATUS","details":"…"}\`) |
| cancelActivation | id | HTTP 204, empty (errors: 404/409 \`{"title":"EARLY_CANCEL_DENIED","details":"…"}\`) |

Activation states in list rows (\`activationStatus\`, getHistory \`status\`): \`1\` waiting for the code,
\`3\` waiting for another SMS, \`6\` code received, \`8\` cancelled. Times are UTC.

A parameter given more than once (repeated, \`name[]\`, a JSON array) is answered with that
parameter's token (\`BAD_ACTION\`, \`BAD_SERVICE\`, \`NO_ACTIVATION\`, \`BAD_STATUS\`, \`WRONG_MAX_PRICE\`,
\`BAD_KEY\`; paging values are read as absent). A body over 64 KB: HTTP 413
\`{"title":"BODY_TOO_LARGE","details":"…"}\`.

Error tokens (HTTP 200): \`NO_KEY\`, \`BAD_KEY\`, \`ACCOUNT_INACTIVE\`, \`BAD_ACTION\`, \`BAD_SERVICE\`,
\`NO_NUMBERS\`, \`NO_BALANCE\`, \`WRONG_MAX_PRICE:<price>\`, \`NO_ACTIVATION\`, \`BAD_STATUS\`,
\`EARLY_CANCEL_DENIED\`, \`OPERATORS_NOT_FOUND\`, \`ERROR_SQL\` (a server fault; bad input gets the tokens above, and
paging values that are not numbers are read as absent and clamped).
Over the rate limit: HTTP 429 \`{"title":"RATE_LIMIT","details":"…"}\`.`;

export async function handlerRoutes(app: App, ctx: AppContext): Promise<void> {
  await app.register(async (instance) => {
    const scope = instance.withTypeProvider<ZodTypeProvider>() as unknown as App;
    // SMS-Activate clients POST forms; this scope alone reads them. A body that cannot be read
    // (bad JSON, another type) carries no parameters rather than failing before the key is checked:
    // the answer is then the protocol's own (NO_KEY, BAD_KEY, BAD_ACTION…), never ERROR_SQL.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: BODY_LIMIT },
      (_req, body, done) => done(null, lenientJson(String(body))),
    );
    scope.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, _body, done) =>
      done(null, undefined),
    );
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: BODY_LIMIT },
      (_req, body, done) => done(null, formParams(String(body))),
    );
    route(
      scope,
      ctx,
      endpoints.rentalApi.handler,
      async (req, reply) => {
        const answer = await runAction(ctx, currentUser(req).id, params(req.query, req.body));
        return send(reply, answer);
      },
      {
        schema: { description: DESCRIPTION },
        // Refusals (a missing or wrong key included) are the protocol's tokens, never our JSON errors.
        errorHandler: (err, req, reply) => {
          if (err instanceof DomainError) return send(reply, refusal(err));
          const status = (err as { statusCode?: number }).statusCode;
          // A body over the limit: a real status in Hero's envelope (like RATE_LIMIT), as no
          // parameter of it was read.
          if (status === 413) {
            return send(reply, {
              status: 413,
              json: {
                title: 'BODY_TOO_LARGE',
                details: `The request body is larger than ${BODY_LIMIT / 1024} KB: send the parameters in the query string or a short form.`,
              },
            });
          }
          // Any other request that cannot be read names no action. ERROR_SQL is for server faults.
          if (status && status >= 400 && status < 500) {
            req.log.info({ err }, 'handler input refused');
            return send(reply, { status: 200, text: 'BAD_ACTION' });
          }
          req.log.error({ err }, 'handler action failed');
          return send(reply, { status: 200, text: 'ERROR_SQL' });
        },
      },
    );
  });
}
