/**
 * Texts of Gateway Manager, Device Statistics and the SIM table. One file per screen group keeps
 * concurrent work apart; en.ts and vi.ts spread these in. Keys use the screen's prefix.
 */
export const gatewaysEn = {} as const;

export const gatewaysVi: Record<keyof typeof gatewaysEn, string> = {};
