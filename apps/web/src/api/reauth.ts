import { REAUTH_HEADER } from '@simdock/contract';
import { subscribeToken } from './token.ts';

// A fresh re-authentication (POST /api/Auth/reauth) for the calls that need one: the proof is kept in
// memory only (never in storage: a script that reads localStorage must not find it), sent as the
// X-Reauth header while it is valid, and forgotten when the session changes. When a call is refused
// with `reauth_required`, the client asks the one shared dialog (ReauthDialog) and retries once.

let proof: { value: string; expiresAt: number } | null = null;

/** Asks the person for the password (and a code); true once a new proof is held, false on cancel. */
type Prompter = () => Promise<boolean>;
let prompter: Prompter | null = null;
/** One prompt at a time: calls refused together wait for the same dialog. */
let pending: Promise<boolean> | null = null;

export function rememberReauth(value: string, expiresInSeconds: number): void {
  // A few seconds early: a proof about to expire is not sent to be refused on arrival.
  proof = { value, expiresAt: Date.now() + Math.max(0, expiresInSeconds - 10) * 1000 };
}

export function forgetReauth(): void {
  proof = null;
}

/** The header of a held, valid proof (or none). */
export function reauthHeaders(): Record<string, string> {
  if (!proof || proof.expiresAt <= Date.now()) return {};
  return { [REAUTH_HEADER]: proof.value };
}

/** The dialog registers itself here while it is mounted (the signed-in shell). */
export function setReauthPrompter(fn: Prompter | null): void {
  prompter = fn;
}

/** Shows the dialog (once for calls refused together); false when there is none or it was cancelled. */
export function promptReauth(): Promise<boolean> {
  if (!prompter) return Promise.resolve(false);
  pending ??= prompter().finally(() => {
    pending = null;
  });
  return pending;
}

// A new session (sign-in, sign-out, a password change) makes the old proof void on the server too.
subscribeToken(forgetReauth);
