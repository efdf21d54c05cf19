import { z } from 'zod';

/** POST /api/Admin/overview (Admin9): the figures of the admin's home screen. */
export const AdminOverview = z.object({
  /** Registered accounts. */
  users: z.number().int(),
  /** Sum of every user's balance (USD): what the platform owes its users. */
  balanceHeld: z.number(),
  gatewaysOnline: z.number().int(),
  gatewaysTotal: z.number().int(),
  /** SIMs present in a port, and those that can send and receive now (a usable state, not locked). */
  sims: z.number().int(),
  simsUsable: z.number().int(),
  /** SIMs locked now (failed sends, blocked by the device, or by an admin). */
  simsLocked: z.number().int(),
  /** Bulk and chat messages waiting in the queue, and those of them no SIM can take now. */
  messagesQueued: z.number().int(),
  messagesWaitingForSim: z.number().int(),
  /**
   * SIMs kept for sending now: this many free SIMs with role Both are never rented
   * (`simsKeptForSendingPercent` of the usable ones, rounded down; 0 % = rentals may take every SIM).
   */
  simsKeptForSending: z.number().int(),
  simsKeptForSendingPercent: z.number().int(),
  /** Orders created since midnight UTC, and those of them that received a code. */
  ordersToday: z.number().int(),
  ordersTodaySuccess: z.number().int(),
  /** Orders waiting for a code right now. */
  ordersWaiting: z.number().int(),
  /** Incoming SMS (not delivery reports) that matched no order, over the last 24 h. */
  unmatchedSms24h: z.number().int(),
  serverTime: z.string(),
});
export type AdminOverview = z.infer<typeof AdminOverview>;
