import { type RuleMessageKey, ruleMessages } from '@simdock/contract';
import type { FieldError, FieldValues, Resolver } from 'react-hook-form';
import { ApiError } from '../api/client.ts';
import type { TFunction } from '../i18n/index.tsx';

/**
 * react-hook-form resolver built on a contract rule function (validateRegister, validateService…).
 * The error `message` is the rule's message KEY; show it with `ruleText(t, errors.x)`.
 *   useForm({ resolver: ruleResolver((v) => validateRegister(v)) })
 */
export function ruleResolver<T extends FieldValues>(
  validate: (values: T) => Partial<Record<string, RuleMessageKey | undefined>>,
): Resolver<T> {
  return async (values) => {
    const entries = Object.entries(validate(values)).filter(([, key]) => key !== undefined);
    if (entries.length === 0) return { values, errors: {} };
    return {
      values: {},
      errors: Object.fromEntries(entries.map(([field, key]) => [field, { type: 'rule', message: key }])),
    } as unknown as Awaited<ReturnType<Resolver<T>>>;
  };
}

/** The translated text of a field's rule error, or undefined. */
export function ruleText(t: TFunction, error: Pick<FieldError, 'message'> | undefined): string | undefined {
  return error?.message ? t(`rule.${error.message as RuleMessageKey}`) : undefined;
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
 * that is a contract rule text becomes that rule's key, so it shows in the user's language.
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
