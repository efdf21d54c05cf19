import { apikeyEn } from './screens/apikey.ts';
import { chatEn } from './screens/chat.ts';
import { errorCodesEn } from './screens/error-codes.ts';
import { gatewaysEn } from './screens/gateways.ts';
import { messagingEn } from './screens/messaging.ts';
import { outboxEn } from './screens/outbox.ts';
import { paymentsEn } from './screens/payments.ts';
import { rentalEn } from './screens/rental.ts';
import { secondFactorEn } from './screens/second-factor.ts';
import { servicesOrdersEn } from './screens/services-orders.ts';
import { signedInEn } from './screens/signed-in.ts';
import { usersEn } from './screens/users.ts';

/**
 * The English texts of the signed-in screens. Not in the initial bundle (the login route never needs
 * them; see the JS budget in the README): `loadTexts('screens')` fetches this chunk, the app shell's
 * chunk waits for it, and every signed-in page renders inside the shell, so the texts are there before
 * a screen shows. A new signed-in screen group goes here; texts every signed-out page needs stay in
 * en.ts; the landing and legal pages' texts are screens/public.ts (`loadTexts('public')`).
 */
export const enScreens = {
  ...apikeyEn,
  ...gatewaysEn,
  ...usersEn,
  ...secondFactorEn,
  ...paymentsEn,
  ...messagingEn,
  ...chatEn,
  ...servicesOrdersEn,
  ...rentalEn,
  ...signedInEn,
  ...errorCodesEn,
  ...outboxEn,
} as const;
