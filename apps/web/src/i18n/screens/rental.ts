/**
 * Texts of the Dashboard's rental content (services, orders, stat cards). One file per screen group keeps
 * concurrent work apart; en.ts and vi.ts spread these in. Keys use the screen's prefix.
 */
export const rentalEn = {} as const;

export const rentalVi: Record<keyof typeof rentalEn, string> = {};
