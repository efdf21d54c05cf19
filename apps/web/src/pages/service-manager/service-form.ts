import {
  coerceNumber,
  patternProblem,
  SERVICE_DEFAULTS,
  type Service,
  type ServiceForm,
  type ServiceInput,
  validateService,
} from '@simdock/contract';
import type { Resolver } from 'react-hook-form';
import { formatMoneyInput } from '../../lib/format.ts';
import { ruleResolver, serverFieldErrorOf } from '../../lib/forms.ts';

/** The modal's values: numbers stay the typed text until they are sent (coerced, docs/product.md#forms). */
export interface ServiceFormValues {
  name: string;
  code: string;
  description: string;
  price: string;
  stock: string;
  rentTimeMinutes: string;
  pattern: string;
  textContains: string;
  isRepeatable: boolean;
  isEnable: boolean;
}

/** The fields the server may name in a 400/409 answer; its message goes under that field. */
export const SERVER_FIELDS = ['name', 'code', 'price', 'stock', 'rentTimeMinutes', 'pattern'] as const;
export type ServerField = (typeof SERVER_FIELDS)[number];

/** A new service starts with the spec's defaults: price 1, rent time 20 minutes, a digits pattern. */
export function emptyServiceForm(): ServiceFormValues {
  return {
    name: '',
    code: '',
    description: '',
    price: formatMoneyInput(SERVICE_DEFAULTS.price, 2),
    stock: String(SERVICE_DEFAULTS.stock),
    rentTimeMinutes: String(SERVICE_DEFAULTS.rentTimeMinutes),
    pattern: SERVICE_DEFAULTS.pattern,
    textContains: '',
    isRepeatable: false,
    isEnable: true,
  };
}

export function formFromService(s: Service): ServiceFormValues {
  return {
    name: s.name,
    code: s.code,
    description: s.description,
    price: formatMoneyInput(s.price, 2),
    stock: String(s.stock),
    rentTimeMinutes: String(s.rentTimeMinutes),
    pattern: s.pattern,
    textContains: s.textContains,
    isRepeatable: s.isRepeatable,
    isEnable: s.isEnable,
  };
}

/** What the rules see: text trimmed, numbers coerced (non-numeric → 0). */
export function toServiceForm(v: ServiceFormValues): ServiceForm {
  return {
    name: v.name.trim(),
    code: v.code.trim(),
    price: coerceNumber(v.price),
    stock: coerceNumber(v.stock),
    rentTimeMinutes: coerceNumber(v.rentTimeMinutes),
  };
}

/** The body of POST /api/service/update; an empty pattern becomes the default one. */
export function toServiceInput(v: ServiceFormValues, id?: string): ServiceInput {
  return {
    ...(id ? { id } : {}),
    ...toServiceForm(v),
    description: v.description.trim(),
    pattern: v.pattern.trim() || SERVICE_DEFAULTS.pattern,
    textContains: v.textContains.trim(),
    isRepeatable: v.isRepeatable,
    isEnable: v.isEnable,
  };
}

/** The contract's pattern check (compiles, bounded, no nested repetition); empty means the default. */
export function servicePatternProblem(pattern: string): string | undefined {
  return patternProblem(pattern.trim() || SERVICE_DEFAULTS.pattern);
}

const ruleCheck = ruleResolver<ServiceFormValues>((v) => validateService(toServiceForm(v)));

/** validateService's rule keys (type 'rule') plus the pattern check (type 'pattern', the contract's text). */
export const serviceFormResolver: Resolver<ServiceFormValues> = async (values, context, options) => {
  const result = await ruleCheck(values, context, options);
  const problem = servicePatternProblem(values.pattern);
  if (!problem) return result;
  return {
    values: {},
    errors: { ...result.errors, pattern: { type: 'pattern', message: problem } },
  } as Awaited<ReturnType<Resolver<ServiceFormValues>>>;
};

/**
 * A failed save that names one of the form's fields: the error to put under it. A server message
 * that is a contract rule text becomes that rule's key, so it shows in the user's language.
 */
export function serverFieldError(err: unknown) {
  return serverFieldErrorOf<ServerField>(err, SERVER_FIELDS);
}

/** The search box: name, code or description contains the query (case-insensitive). */
export function filterServices<S extends Pick<Service, 'name' | 'code' | 'description'>>(
  services: readonly S[],
  query: string,
): S[] {
  const q = query.trim().toLowerCase();
  if (!q) return [...services];
  return services.filter((s) =>
    [s.name, s.code, s.description].some((text) => text.toLowerCase().includes(q)),
  );
}
