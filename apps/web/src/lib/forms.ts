import { type RuleMessageKey, ruleMessages } from '@simdock/contract';
import type { FieldError, FieldValues, Resolver } from 'react-hook-form';
import type { z } from 'zod';
import { ApiError } from '../api/client.ts';
import type { MessageKey, TFunction } from '../i18n/index.tsx';
import { localContractText } from '../i18n/server-messages.ts';

/**
 * The one form pattern (README): react-hook-form, validated with the contract's rules, errors shown with
 * `fieldErrorText`:
 *   - a contract rule function (validateRegister, validateService…): `ruleResolver`;
 *   - a contract body schema (zod): `zodResolver(Schema)` from @hookform/resolvers/zod when the form's values
 *     are the body; its messages are the contract's texts, shown in the user's language when the catalogue
 *     has them. When the body is built from the values (ids added, text trimmed): `bodyResolver`;
 *   - checks built on the contract's helpers and limits where it has neither: `keyResolver`;
 *   - several at once (a required check before a body schema with no minimum): `allResolvers`
 *     (lib/all-resolvers.ts: its own module, so the login route, which imports this one, does not carry it).
 * Input limits (`maxLength`) come from the contract's constants (TEXT_LIMITS, PASSWORD_MAX…).
 */

type ResolverResult<T extends FieldValues> = Awaited<ReturnType<Resolver<T>>>;

function resolved<T extends FieldValues>(
  values: T,
  found: Partial<Record<string, string | undefined>>,
  type: 'rule' | 'text',
): ResolverResult<T> {
  const entries = Object.entries(found).filter(([, message]) => message !== undefined);
  if (entries.length === 0) return { values, errors: {} };
  return {
    values: {},
    errors: Object.fromEntries(entries.map(([field, message]) => [field, { type, message }])),
  } as unknown as ResolverResult<T>;
}

/**
 * react-hook-form resolver built on a contract rule function (validateRegister, validateService…).
 * The error `message` is the rule's message KEY (type 'rule'); show it with `fieldErrorText(t, errors.x)`.
 *   useForm({ resolver: ruleResolver((v) => validateRegister(v)) })
 */
export function ruleResolver<T extends FieldValues>(
  validate: (values: T) => Partial<Record<string, RuleMessageKey | undefined>>,
): Resolver<T> {
  return async (values) => resolved(values, validate(values), 'rule');
}

/**
 * react-hook-form resolver for checks built on the contract's helpers and limits (isHttpUrl,
 * normalizePhoneNumber, SIM_LOCK_REASON_MAX…) where it has no rule function: `validate` names the
 * catalogue key to show under each bad field (type 'text').
 */
export function keyResolver<T extends FieldValues>(
  validate: (values: T) => Partial<Record<string, MessageKey | undefined>>,
): Resolver<T> {
  return async (values) => resolved(values, validate(values), 'text');
}

/**
 * react-hook-form resolver over a contract body schema, for a form whose values are not the body:
 * `toBody` builds the request body (the submit handler sends the same), the schema checks it. An issue
 * on a body field that is one of the form's fields goes under it: as `texts[field]` (a catalogue key,
 * type 'text') when given, else as the schema's message (a contract text).
 */
export function bodyResolver<T extends FieldValues>(
  schema: z.ZodType,
  toBody: (values: T) => unknown,
  texts: Partial<Record<keyof T & string, MessageKey>> = {},
): Resolver<T> {
  return async (values) => {
    const parsed = schema.safeParse(toBody(values));
    if (parsed.success) return { values, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0];
      if (typeof field !== 'string' || !(field in values) || errors[field]) continue;
      const text = texts[field as keyof T & string];
      errors[field] = text ? { type: 'text', message: text } : { type: issue.code, message: issue.message };
    }
    // Only fields the form does not show (ids) are wrong: send, and let the server's answer say why.
    if (Object.keys(errors).length === 0) return { values, errors: {} };
    return { values: {}, errors } as unknown as ResolverResult<T>;
  };
}

/** The translated text of a field's rule error, or undefined. */
export function ruleText(t: TFunction, error: Pick<FieldError, 'message'> | undefined): string | undefined {
  return error?.message ? t(`rule.${error.message as RuleMessageKey}`) : undefined;
}

/**
 * The text under a field, whatever set its error: a rule key (type 'rule') or a catalogue key ('text')
 * through the catalogue; any other message (a contract schema's text, the server's words) in the user's
 * language when it is a contract rule or messaging text, else as it is.
 */
export function fieldErrorText(
  t: TFunction,
  error: Pick<FieldError, 'type' | 'message'> | undefined,
): string | undefined {
  if (!error?.message) return undefined;
  if (error.type === 'rule') return ruleText(t, error);
  if (error.type === 'text') return t(error.message as MessageKey);
  return localContractText(error.message, t) ?? error.message;
}

/** onChange wrapper that lower-cases what is typed (username and email, docs/product.md#forms). */
export function lowerCaseInput<E extends { target: { value: string } }>(onChange: (e: E) => unknown) {
  return (e: E) => {
    const lower = e.target.value.toLowerCase();
    if (lower !== e.target.value) e.target.value = lower;
    return onChange(e);
  };
}

/**
 * A failed save that names one of the form's `fields`: the error to put under it. A server message
 * that is a contract rule text becomes that rule's key, so it shows in the user's language; any other
 * is the error's message (already in the user's language as far as the catalogue goes).
 */
export function serverFieldErrorOf<F extends string>(
  err: unknown,
  fields: readonly F[],
): { field: F; type: 'rule' | 'server'; message: string } | undefined {
  if (!(err instanceof ApiError) || !err.field) return undefined;
  const field = fields.find((f) => f === err.field);
  if (!field) return undefined;
  const ruleKey = (Object.keys(ruleMessages) as RuleMessageKey[]).find(
    (k) => ruleMessages[k] === err.serverMessage,
  );
  return ruleKey
    ? { field, type: 'rule', message: ruleKey }
    : { field, type: 'server', message: err.message };
}
