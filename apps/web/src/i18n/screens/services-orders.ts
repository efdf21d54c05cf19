/**
 * Texts of Service Manager and Order Manager. One file per screen group keeps
 * concurrent work apart; en.ts and vi.ts spread these in. Keys use the screen's prefix.
 */
export const servicesOrdersEn = {} as const;

export const servicesOrdersVi: Record<keyof typeof servicesOrdersEn, string> = {};
