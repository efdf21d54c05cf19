import type { FieldValues, Resolver } from 'react-hook-form';

/**
 * Several resolvers over the same values, as one: a field shows the first error any of them finds
 * (e.g. a required check before the contract's body schema, which has no minimum).
 *   resolver: allResolvers(keyResolver(required), bodyResolver(ForgotBody, toBody))
 */
export function allResolvers<T extends FieldValues>(...resolvers: Resolver<T>[]): Resolver<T> {
  return async (values, context, options) => {
    const errors: Record<string, unknown> = {};
    for (const resolver of resolvers) {
      const result = await resolver(values, context, options);
      for (const [field, error] of Object.entries(result.errors)) errors[field] ??= error;
    }
    if (Object.keys(errors).length === 0) return { values, errors: {} };
    return { values: {}, errors } as unknown as Awaited<ReturnType<Resolver<T>>>;
  };
}
