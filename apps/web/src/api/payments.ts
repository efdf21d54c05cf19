/** Every query about the signed-in user's own payments starts with this key; the live `payment` event refreshes them. */
export const MY_PAYMENTS_KEY = ['my-payments'] as const;
/** Payment Manager's queries (also refreshed by a `payment` event, when an admin pays their own invoice). */
export const ADMIN_PAYMENTS_KEY = ['admin-payments'] as const;
