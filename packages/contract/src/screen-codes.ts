import { DEVICE_KINDS, SIM_ROLES } from './api/gateways.ts';
import { ORDER_STATUSES } from './api/orders.ts';
import { PAYMENT_STATUSES, PROVIDER_PAYMENT_STATUSES } from './api/payments.ts';
import { SPENT_REASONS } from './api/services.ts';
import { AUDIT_KINDS, USER_STATUSES } from './api/users.ts';
import { ROLES } from './roles.ts';

/**
 * The machine codes the API carries that every screen names in words (a role, a status, an audit
 * action): the browser suite fails when a page shows one of them as it is (e2e/raw-text.ts).
 */
export const SCREEN_CODES: readonly string[] = [
  ...ROLES,
  ...ORDER_STATUSES,
  ...PAYMENT_STATUSES,
  ...PROVIDER_PAYMENT_STATUSES,
  ...USER_STATUSES,
  ...SIM_ROLES,
  ...DEVICE_KINDS,
  ...SPENT_REASONS,
  ...AUDIT_KINDS,
];

/**
 * A phone's own result codes (the Android SMS Gateway's "RESULT_ERROR_GENERIC_FAILURE"): a family, not a
 * list; History shows a plain reason instead and keeps the device's text as its detail.
 */
export const DEVICE_RESULT_CODE = /\bRESULT_[A-Z][A-Z_]*\b/g;
