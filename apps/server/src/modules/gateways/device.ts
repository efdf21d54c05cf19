import type { AppContext } from '../../context.ts';
import { unseal } from '../../crypto.ts';
import { unavailable } from '../../errors.ts';
import { type GatewayDriver, GatewayError } from './driver/driver.ts';
import { EjoinDriver } from './driver/ejoin.ts';

export interface DeviceAccess {
  url: string;
  user_name: string;
  password_enc: string;
  /** The gateway's driver kind (gateways.driver). */
  driver: string;
}

/** The drivers the platform speaks, by the kind stored on each gateway. */
const DRIVERS: Record<
  string,
  (target: { url: string; username: string; password: string }) => GatewayDriver
> = {
  ejoin: (target) => new EjoinDriver(target),
};

export const DRIVER_KINDS = Object.keys(DRIVERS);

/**
 * The driver for one gateway. The password is unsealed only when a device call reads it: reading
 * a push never touches it.
 */
export function driverFor(ctx: AppContext, gw: DeviceAccess): GatewayDriver {
  const make = DRIVERS[gw.driver];
  if (!make) throw new Error(`No gateway driver "${gw.driver}"`);
  return make({
    url: gw.url,
    username: gw.user_name,
    get password() {
      try {
        return unseal(ctx.config.APP_SECRET, gw.password_enc);
      } catch {
        // Sealed under another APP_SECRET (or damaged): a device error the admin can fix, not a crash.
        throw new GatewayError(
          'auth',
          'The stored password of this gateway cannot be read (was APP_SECRET changed?); enter it again',
        );
      }
    },
  });
}

/** A failed device call as a 503 a person can act on; anything else is re-thrown. */
export function deviceUnavailable(err: unknown, what = 'Gateway did not answer'): never {
  if (!(err instanceof GatewayError)) throw err;
  const hint =
    err.kind === 'auth'
      ? ' Check the User Name and Password of this gateway.'
      : err.kind === 'timeout' || err.kind === 'network'
        ? ' Check that the device is powered on and that its URL is reachable from the server.'
        : '';
  throw unavailable(`${what}: ${err.message}.${hint}`, 'gateway_unreachable');
}
