import type { AppContext } from '../../context.ts';
import { unseal } from '../../crypto.ts';
import { unavailable } from '../../http/errors.ts';
import { type GatewayDriver, GatewayError } from './driver/driver.ts';
import { EjoinDriver } from './driver/ejoin.ts';

export interface DeviceAccess {
  url: string;
  user_name: string;
  password_enc: string;
}

/** The driver for one gateway; the password is unsealed only here, for the call. */
export function driverFor(ctx: AppContext, gw: DeviceAccess): GatewayDriver {
  return new EjoinDriver({
    url: gw.url,
    username: gw.user_name,
    password: unseal(ctx.config.APP_SECRET, gw.password_enc),
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
  throw unavailable(`${what}: ${err.message}.${hint}`);
}
