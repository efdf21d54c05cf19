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
  id: boundedText(L.id, 'Id').optional(),
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
