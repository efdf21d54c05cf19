import { z } from 'zod';

/** Every failure has this body, with a fitting HTTP status. `field` names the bad input. */
export const ErrorBody = z.object({
  code: z.literal(0),
  error: z.enum([
    'bad_input',
    'unauthorized',
    'payment_required',
    'forbidden',
    'not_found',
    'conflict',
    'too_many_requests',
    'unavailable',
    'internal',
  ]),
  msg: z.string(),
  field: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;
export type ErrorKind = ErrorBody['error'];

/** The spec's `{code: 1, msg}` success convention. */
export const Ok = z.object({ code: z.literal(1), msg: z.string() });
export type Ok = z.infer<typeof Ok>;

export const Empty = z.object({}).optional();

export const AppMeta = z.object({ demo: z.boolean(), serverTime: z.string() });
export type AppMeta = z.infer<typeof AppMeta>;
