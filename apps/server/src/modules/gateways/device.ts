import type { AppContext } from '../../context.ts';
import { unseal } from '../../crypto.ts';
import { unavailable } from '../../errors.ts';
import { datagramPorts } from './datagram-ports.ts';
import { type GatewayDriver, GatewayError } from './driver/driver.ts';
import { deviceKind } from './driver/registry.ts';

/** What building a gateway's driver reads from its row. */
export interface DeviceAccess {
  url: string;
  user_name: string;
  password_enc: string;
  /** The gateway's driver kind (gateways.driver). */
  driver: string;
  mode: string | null;
  external_id: string | null;
  signing_key_enc: string | null;
  web_user?: string | null;
  web_password_enc?: string | null;
}

/**
 * The driver for one gateway. Secrets are unsealed only when the driver reads them: reading an
 * unsigned push never touches them.
 */
export function driverFor(ctx: AppContext, gw: DeviceAccess): GatewayDriver {
  const kind = deviceKind(ctx, gw.driver);
  if (!kind) throw new Error(`No gateway driver "${gw.driver}"`);
  const open = (sealed: string, what: string) => {
    try {
      return unseal(ctx.config.APP_SECRET, sealed);
    } catch {
      // Sealed under another APP_SECRET (or damaged): a device error the admin can fix, not a crash.
      throw new GatewayError(
        'auth',
        `The stored ${what} of this gateway cannot be read (was APP_SECRET changed?); enter it again`,
      );
    }
  };
  return kind.create({
    url: gw.url,
    username: gw.user_name,
    mode: gw.mode,
    externalId: gw.external_id,
    get password() {
      return open(gw.password_enc, 'password');
    },
    get signingKey() {
      return gw.signing_key_enc === null ? null : open(gw.signing_key_enc, 'signing key');
    },
    webUser: gw.web_user ?? null,
    get webPassword() {
      const sealed = gw.web_password_enc ?? null;
      return sealed === null ? null : open(sealed, 'web password');
    },
    get datagrams() {
      return datagramPorts(ctx).get(gw.driver);
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
