import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { SMPP_PASSWORD_LENGTH, type SmppPasswordResponse } from '@simdock/contract';
import type { AppContext, AuthUser } from '../../context.ts';
import { safeEqual } from '../../crypto.ts';
import { DomainError, notFound } from '../../errors.ts';
import { apiKeyUse, ownApiKey } from '../apikey/index.ts';
import { smppPorts } from './ports.ts';
import { accountBySystemId, type SmppAccountRow, upsertPassword } from './smpp.queries.ts';

const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** 8 characters from an alphabet without look-alikes (about 46 bits). */
export function newSmppPassword(): string {
  let out = '';
  for (let i = 0; i < SMPP_PASSWORD_LENGTH; i++) out += ALPHABET[randomInt(ALPHABET.length)];
  return out;
}

/** The stored form of a password: an HMAC under APP_SECRET (a leaked table alone reveals nothing). */
export const passwordHash = (ctx: AppContext, password: string) =>
  createHmac('sha256', ctx.config.APP_SECRET).update(`smpp:${password}`).digest('hex');

/** A new system_id: `sd` and 10 hex characters (12 of the 15 allowed). */
const newSystemId = () => `sd${randomBytes(5).toString('hex')}`;

/** Makes or replaces the SMPP password of one of the user's keys (it needs `messaging:send`). */
export async function setSmppPassword(
  ctx: AppContext,
  userId: string,
  keyId: string,
): Promise<Omit<SmppPasswordResponse, 'code' | 'msg'>> {
  const key = await ownApiKey(ctx, userId, keyId);
  if (!key) throw notFound('There is no such API key.');
  if (!key.scopes.includes('messaging:send')) {
    throw new DomainError(
      'api_key_scope_missing',
      'SMPP sends messages: choose a key with the messaging:send scope.',
      'id',
    );
  }
  const password = newSmppPassword();
  const systemId = await upsertPassword(
    ctx.db,
    key.id,
    newSystemId(),
    passwordHash(ctx, password),
    ctx.clock.now(),
  );
  const ports = smppPorts(ctx);
  return {
    systemId,
    password,
    host: new URL(ctx.config.PUBLIC_URL).hostname,
    port: ports.plain ?? ctx.config.SMPP_PORT,
    tlsPort:
      ctx.config.SMPP_TLS_CERT && ctx.config.SMPP_TLS_KEY ? (ports.tls ?? ctx.config.SMPP_TLS_PORT) : null,
  };
}

/** A bind's outcome: the account and its key's user, or the SMPP status and the reason for the log. */
export type BindCheck =
  | { ok: true; account: SmppAccountRow; user: AuthUser }
  | { ok: false; status: 'password' | 'refused'; reason: string };

// Compared against when the system_id is unknown, so that both refusals take the same time.
const NO_HASH = '0'.repeat(64);

/**
 * Checks a bind's credentials and its key: an unknown system_id and a wrong password are the same
 * refusal (no way to learn which system_ids exist).
 */
export async function checkBind(
  ctx: AppContext,
  systemId: string,
  password: string,
  ip: string,
): Promise<BindCheck> {
  const account = systemId ? await accountBySystemId(ctx.db, systemId) : undefined;
  const matches = safeEqual(passwordHash(ctx, password), account?.password_hash ?? NO_HASH);
  if (!account) return { ok: false, status: 'password', reason: 'unknown system_id' };
  if (!matches) return { ok: false, status: 'password', reason: 'wrong password' };
  const use = await apiKeyUse(ctx, account.api_key_id, ip, 'messaging:send');
  if ('refused' in use) return { ok: false, status: 'refused', reason: use.refused };
  return { ok: true, account, user: use.user };
}
