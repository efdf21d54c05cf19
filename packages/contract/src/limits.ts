import { z } from 'zod';
import { hasLoneSurrogate } from './text.ts';

/**
 * Upper bounds of every text a client sends. They are checked by the request schemas before any
 * rule (and any regular expression) looks at the value, so no input can make a rule slow, and no
 * value can reach a column it does not fit. Messages that are whole sentences end with a period;
 * the server passes them on as they are.
 */
export const TEXT_LIMITS = {
  /** Raw login name as typed (trimmed and lower-cased later); real usernames are 3–16. */
  loginUsername: 64,
  email: 254,
  password: 256,
  id: 64,
  serviceName: 100,
  serviceCode: 64,
  serviceDescription: 1000,
  servicePattern: 1000,
  textContains: 200,
  gatewayName: 100,
  gatewayUrl: 2048,
  gatewayUserName: 100,
  gatewayPassword: 256,
  mac: 64,
  deviceId: 64,
  signingKey: 256,
  port: 16,
  phoneNumber: 32,
  /** An operator's name ("Vodafone"). */
  operator: 64,
  /** An admin's reason for marking a number spent for a service. */
  spentReason: 200,
  smsSender: 64,
  smsText: 1000,
  orderId: 32,
  filter: 100,
} as const;

/** Page numbers in list queries: far beyond any real list, well inside every SQL integer. */
export const PAGE_MAX = 1_000_000;

export const tooLongMessage = (label: string, max: number) => `${label} must be at most ${max} characters.`;
export const nulMessage = (label: string) => `${label} must not contain the NUL character (U+0000).`;
export const surrogateMessage = (label: string) =>
  `${label} contains an invalid character (a lone UTF-16 surrogate).`;

/**
 * A client-supplied string: at most `max` characters (checked first), never a NUL or a lone
 * surrogate (PostgreSQL refuses the first; the second is no character at all). `tooLong`
 * replaces the default message where the spec has its own text.
 */
export function boundedText(max: number, label: string, tooLong = tooLongMessage(label, max)) {
  return z
    .string()
    .max(max, tooLong)
    .refine((s) => !s.includes('\u0000'), nulMessage(label))
    .refine((s) => !hasLoneSurrogate(s), surrogateMessage(label));
}
