import { z } from 'zod';
import { boundedText, TEXT_LIMITS as L, PAGE_MAX } from '../limits.ts';
import { PageCursorFields, PagedAnswerFields } from '../pagination.ts';
import { CountryCode, OperatorName } from './places.ts';

export const ORDER_STATUSES = ['WAIT_CODE', 'SUCCESS', 'CANCEL'] as const;
export const OrderStatus = z.enum(ORDER_STATUSES);
export type OrderStatus = z.infer<typeof OrderStatus>;

export const Order = z.object({
  id: z.string(),
  serviceCode: z.string(),
  serviceName: z.string(),
  phoneNumber: z.string(),
  codeText: z.string().nullable(),
  /** Full text of the last matching SMS. */
  smsText: z.string().nullable(),
  status: OrderStatus,
  price: z.number(),
  createdAt: z.string(),
  expiresAt: z.string(),
  /** Earliest time a cancel is accepted. */
  cancelableAt: z.string(),
  /** The user finished it (it takes no more codes); absent in older answers, read as false. */
  finished: z.boolean().optional(),
  /** The number's country (ISO 3166-1 alpha-2) and operator, as counted when it was rented. */
  country: z.string().nullable().optional(),
  operator: z.string().nullable().optional(),
});
export type Order = z.infer<typeof Order>;

export const CreateOrderBody = z.object({
  serviceCode: boundedText(L.serviceCode, 'Service code').pipe(z.string().min(1, 'Choose a service.')),
  /** Only a number of this country (and operator); its price is the country's. */
  country: CountryCode.optional(),
  operator: OperatorName.optional(),
});
/**
 * `Idempotency-Key` on a rent: a retried request with the same key (per user) returns the first
 * answer's order instead of renting again. The web app sends a new key per click.
 */
export const IdempotencyHeaders = z.object({
  'idempotency-key': z
    .string()
    .min(1, 'Idempotency-Key must not be empty.')
    .max(128, 'Idempotency-Key must be at most 128 characters.')
    .regex(/^[\x21-\x7e]+$/, 'Idempotency-Key must be printable ASCII without spaces.')
    .optional(),
});
export const CreateOrderResponse = z.object({ code: z.literal(1), data: Order });
export const UserOrdersResponse = z.object({ code: z.literal(1), orders: z.array(Order) });
/** Cancel, finish (a code arrived, take no more) and "another SMS" (repeatable services) name the order alike. */
export const OrderActionBody = z.object({
  orderId: boundedText(L.orderId, 'Order id').pipe(z.string().min(1, 'Order id is required.')),
});
export const CancelOrderResponse = z.object({ code: z.literal(1), msg: z.string(), data: Order });
export const OrderActionResponse = z.object({ code: z.literal(1), msg: z.string(), data: Order });

export const AdminOrder = z.object({
  id: z.string(),
  gateway: z.string(),
  port: z.string(),
  username: z.string(),
  phoneNumber: z.string(),
  serviceCode: z.string(),
  /** The service's name when the number was rented (Order Manager shows names, the code in its tooltip). */
  serviceName: z.string(),
  codeText: z.string().nullable(),
  status: OrderStatus,
  createdAt: z.string(),
});
export type AdminOrder = z.infer<typeof AdminOrder>;

export const ADMIN_PAGE_SIZE = 100;

export const AdminOrdersQuery = z.object({
  page: z.coerce.number().int().min(1).max(PAGE_MAX).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(ADMIN_PAGE_SIZE),
  status: boundedText(L.filter, 'Status').optional(),
  gateway: boundedText(L.filter, 'Gateway').optional(),
  phoneNumber: boundedText(L.filter, 'Phone number').optional(),
  ...PageCursorFields,
});
export const AdminOrdersResponse = z.object({
  items: z.array(AdminOrder),
  page: z.number().int(),
  totalPages: z.number().int(),
  total: z.number().int(),
  ...PagedAnswerFields,
});
export type AdminOrdersResponse = z.infer<typeof AdminOrdersResponse>;

export const GatewayOrderStat = z.object({
  gateway: z.string(),
  totalOrders: z.number().int(),
  successOrders: z.number().int(),
  successRate: z.number(),
});
export const OrderFilterResponse = z.object({
  gateways: z.array(z.string()),
  statuses: z.array(z.string()),
  groupPipeline: z.array(GatewayOrderStat),
});
export type OrderFilterResponse = z.infer<typeof OrderFilterResponse>;

/** Incoming SMS as admins see them: every SMS is kept, matched to an order or not. */
export const InboxSms = z.object({
  id: z.string(),
  gateway: z.string(),
  port: z.string(),
  sender: z.string(),
  text: z.string(),
  receivedAt: z.string(),
  matched: z.boolean(),
});
export type InboxSms = z.infer<typeof InboxSms>;

export const InboxQuery = z.object({
  page: z.coerce.number().int().min(1).max(PAGE_MAX).default(1),
  pageSize: z.coerce.number().int().min(1).max(500).default(ADMIN_PAGE_SIZE),
  /** 'false' lists only SMS no consumer took. */
  matched: z.enum(['true', 'false']).optional(),
  ...PageCursorFields,
});
export const InboxResponse = z.object({
  items: z.array(InboxSms),
  page: z.number().int(),
  totalPages: z.number().int(),
  total: z.number().int(),
  ...PagedAnswerFields,
});
export type InboxResponse = z.infer<typeof InboxResponse>;

/** POST /api/Order/stats: the Dashboard's stat cards. */
export const DashboardStats = z.object({
  /** The user's open rentals. */
  activeNumbers: z.number().int(),
  /** The user's rentals since midnight UTC. */
  dailyRentals: z.number().int(),
  /** Percentage of the last 24 h the gateways were online; null when nothing was measured. */
  uptime: z.number().nullable(),
});
export type DashboardStats = z.infer<typeof DashboardStats>;
