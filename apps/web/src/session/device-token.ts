// Device tokens: a sign-in answer carries one for this browser; sending it back on later sign-ins
// exempts them from the server's per-account failure limit, so someone guessing the password from
// elsewhere cannot lock the owner out. Kept per username (one browser may sign into several accounts).

const KEY = 'simdockDeviceTokens';
/** Accounts remembered per browser; the least recently used is forgotten first. */
export const DEVICE_TOKENS_KEPT = 10;

type Stored = Record<string, string>;

/** The stored map, or an empty one when absent or not ours (a broken value is ignored, never thrown). */
export function parseStored(text: string | null): Stored {
  if (!text) return {};
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
  } catch {
    return {};
  }
}

/** The map with `username`'s token set last (most recent), at most DEVICE_TOKENS_KEPT entries. */
export function withToken(stored: Stored, username: string, token: string): Stored {
  const rest = Object.entries(stored).filter(([name]) => name !== username);
  return Object.fromEntries([...rest, [username, token]].slice(-DEVICE_TOKENS_KEPT));
}

const nameKey = (username: string) => username.trim().toLowerCase();

function storage(): Storage | undefined {
  try {
    return globalThis.localStorage;
  } catch {
    return undefined;
  }
}

/** This browser's device token for the account, if an earlier sign-in left one. */
export function deviceTokenFor(username: string): string | undefined {
  return parseStored(storage()?.getItem(KEY) ?? null)[nameKey(username)];
}

/** Keeps the device token a sign-in answer carried (nothing when it carried none). */
export function keepDeviceToken(username: string, token: string | undefined): void {
  const s = storage();
  if (!s || !token) return;
  try {
    s.setItem(KEY, JSON.stringify(withToken(parseStored(s.getItem(KEY)), nameKey(username), token)));
  } catch {
    // Storage full or refused: the next sign-in simply gets no exemption.
  }
}
