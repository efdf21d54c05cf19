import { z } from 'zod';
import { boundedText, TEXT_LIMITS as L } from '../limits.ts';

export const SERVICE_DEFAULTS = {
  price: 1,
  rentTimeMinutes: 20,
  pattern: '\\d{4,8}',
  // The cap on numbers rented at once; a new service is rentable right away.
  stock: 100,
} as const;
/** Patterns are user input compiled on the server: bounded to keep matching cheap. */
export const PATTERN_MAX_LENGTH = 200;

export const PublicService = z.object({
  id: z.string(),
  name: z.string(),
  code: z.string(),
  description: z.string(),
  price: z.number(),
  available: z.number().int(),
  rentTimeMinutes: z.number(),
  isRepeatable: z.boolean(),
  /** Set when the list was asked for one country: `price` and `available` are that country's. */
  country: z.string().optional(),
});

export const Service = PublicService.extend({
  stock: z.number().int(),
  pattern: z.string(),
  textContains: z.string(),
  isEnable: z.boolean(),
});
export type Service = z.infer<typeof Service>;
export type PublicService = z.infer<typeof PublicService>;

/** POST /api/Service/getall with an admin token: every service, with the admin fields. */
export const AdminServiceListResponse = z.object({ code: z.literal(1), services: z.array(Service) });
export type AdminServiceListResponse = z.infer<typeof AdminServiceListResponse>;

/** Add (no id) and edit. Numbers may arrive as strings from forms: coerced, non-numeric → 0. */
export const ServiceInput = z.object({
  // Absent adds a service; present names the one to edit, so an empty id is refused here (400)
  // rather than treated as either.
  id: boundedText(L.id, 'Id').min(1, 'Id must not be empty: leave it out to add a service.').optional(),
  name: boundedText(L.serviceName, 'Name'),
  code: boundedText(L.serviceCode, 'Code'),
  description: boundedText(L.serviceDescription, 'Description').default(''),
  /** Read with parseFormNumber (rules.ts) on the server. */
  price: z.unknown(),
  stock: z.unknown().optional(),
  rentTimeMinutes: z.unknown().optional(),
  pattern: boundedText(L.servicePattern, 'Pattern').optional(),
  textContains: boundedText(L.textContains, 'Text contains').default(''),
  isRepeatable: z.boolean().default(false),
  isEnable: z.boolean().default(true),
});
export type ServiceInput = z.input<typeof ServiceInput>;

export const DeleteServiceBody = z.object({
  service: z.union([boundedText(L.id, 'Service'), z.object({ id: boundedText(L.id, 'Service id') }).loose()]),
});

/** POST /api/Service/getall: admins get `Service` rows, everyone else `PublicService` rows. */
export const ServiceListResponse = z.object({
  code: z.literal(1),
  services: z.array(z.union([Service, PublicService])),
});
export const PublicServiceListResponse = z.object({ code: z.literal(1), services: z.array(PublicService) });

// ---- spent numbers (the number reuse rule) ----

/**
 * Why a number is spent for a service (no longer rented for it): `code` an order of it got a code;
 * `sms` an order got the service's SMS without a code; `limit` it came back empty more often than
 * NUMBER_REUSE_LIMIT allows; `admin` only an admin's mark (e.g. the service banned it).
 */
export const SPENT_REASONS = ['code', 'sms', 'limit', 'admin'] as const;
export type SpentReason = (typeof SPENT_REASONS)[number];

/** A phone number as typed: spaces, dots, dashes and brackets dropped; undefined unless 3–20 digits (one leading +). */
export function normalizePhoneNumber(input: string): string | undefined {
  const n = input.replace(/[\s().-]/g, '');
  return /^\+?\d{3,20}$/.test(n) ? n : undefined;
}
export const PHONE_NUMBER_MESSAGE = 'Enter the phone number as digits, for example 12025550123.';
export const SPENT_REASON_MESSAGE = 'Enter a reason (at most 200 characters).';

const serviceIdField = boundedText(L.id, 'Service id');

export const SpentNumber = z.object({
  phoneNumber: z.string(),
  reason: z.enum(SPENT_REASONS),
  /** When it became spent (ISO): the end of its last order, or the admin's mark when only that spent it. */
  at: z.string(),
  /** Rentals of this number for this service, whatever their end. */
  rentals: z.number().int(),
  /** The admin's mark, if any (also when its orders spent it too); only a mark can be undone. */
  mark: z.object({ reason: z.string(), markedBy: z.string(), markedAt: z.string() }).nullable(),
});
export type SpentNumber = z.infer<typeof SpentNumber>;

/** The most numbers one answer of POST /api/service/spentNumbers lists (the newest first). */
export const SPENT_LIST_MAX = 500;

/** POST /api/service/spentNumbers: one service's spent numbers; `search` keeps numbers containing it. */
export const SpentNumbersBody = z.object({
  serviceId: serviceIdField,
  search: boundedText(L.phoneNumber, 'Search').optional(),
});
export type SpentNumbersBody = z.infer<typeof SpentNumbersBody>;
export const SpentNumbersResponse = z.object({
  code: z.literal(1),
  serviceId: z.string(),
  /** NUMBER_REUSE_LIMIT: how often an empty rental gives a number back (1 + this many rentals in all). */
  reuseLimit: z.number().int(),
  /** Spent numbers matching the search (the list holds at most SPENT_LIST_MAX of them). */
  total: z.number().int(),
  numbers: z.array(SpentNumber),
});
export type SpentNumbersResponse = z.infer<typeof SpentNumbersResponse>;

/** POST /api/service/spentCounts: how many numbers are spent, per service (services with none left out). */
export const SpentCountsResponse = z.object({
  code: z.literal(1),
  counts: z.array(z.object({ serviceId: z.string(), spent: z.number().int() })),
});
export type SpentCountsResponse = z.infer<typeof SpentCountsResponse>;

/** POST /api/service/markSpent: an admin marks a number spent for a service (again: a new reason). */
export const MarkSpentBody = z.object({
  serviceId: serviceIdField,
  phoneNumber: boundedText(L.phoneNumber, 'Phone number'),
  reason: boundedText(L.spentReason, 'Reason', SPENT_REASON_MESSAGE),
});
export type MarkSpentBody = z.infer<typeof MarkSpentBody>;

/** POST /api/service/unmarkSpent: removes an admin's mark (numbers spent by their orders stay spent). */
export const UnmarkSpentBody = z.object({
  serviceId: serviceIdField,
  phoneNumber: boundedText(L.phoneNumber, 'Phone number'),
});
export type UnmarkSpentBody = z.infer<typeof UnmarkSpentBody>;

/**
 * POST /api/service/returnToPool: an admin gives a number its orders spent back to the service's
 * pool (its empty rentals so far no longer count toward the reuse limit). A number that received an
 * SMS of the service without a code is returned only with `includeSms: true` (the admin confirmed
 * it); one that received a code never is (the service's account on it is its renter's).
 */
export const ReturnToPoolBody = z.object({
  serviceId: serviceIdField,
  phoneNumber: boundedText(L.phoneNumber, 'Phone number'),
  includeSms: z.boolean().optional(),
});
export type ReturnToPoolBody = z.infer<typeof ReturnToPoolBody>;

/** POST /api/service/returnAllToPool: returns every number the reuse limit spent for the service. */
export const ReturnAllToPoolBody = z.object({ serviceId: serviceIdField });
export type ReturnAllToPoolBody = z.infer<typeof ReturnAllToPoolBody>;
export const ReturnAllToPoolResponse = z.object({
  code: z.literal(1),
  msg: z.string(),
  /** How many numbers went back to the pool. */
  returned: z.number().int(),
});
export type ReturnAllToPoolResponse = z.infer<typeof ReturnAllToPoolResponse>;
