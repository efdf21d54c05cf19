// The phone's settings as GET/PATCH /settings show and change them: a partial update per group,
// Local-only keys refused by Cloud/Private, write-only keys never shown.
import type { Mode } from './model.ts';

/** Settings groups as the API shows them (snake_case keys); write-only keys are never shown. */
export type Settings = Record<string, Record<string, unknown>>;

/** Keys only the phone's own (Local) API may set; the server answers 400. */
const LOCAL_ONLY = [
  'webhooks.signing_key',
  'encryption.passphrase',
  'gateway.cloud_url',
  'gateway.private_token',
];
/** Keys that are set but never read back. */
const WRITE_ONLY = new Set(LOCAL_ONLY);

/** What a PATCH changed that the phone must act on (undefined: not named). */
export interface SettingsEffects {
  /** The new ping interval in ms; null stops the pings. */
  pingMs?: number | null;
  signingKey?: string;
}

export class SettingsStore {
  private readonly store: Settings;

  constructor(
    private readonly mode: Mode,
    initial: { pingIntervalMs?: number; retryCount?: number },
  ) {
    this.store = {
      ping: { interval_seconds: initial.pingIntervalMs ? Math.ceil(initial.pingIntervalMs / 1000) : null },
      webhooks: { internet_required: true, retry_count: initial.retryCount ?? 6 },
    };
  }

  /** The settings as GET /settings shows them. */
  shown(): Settings {
    const out: Settings = {};
    for (const [group, values] of Object.entries(this.store)) {
      const shown = Object.entries(values).filter(([k]) => !WRITE_ONLY.has(`${group}.${k}`));
      out[group] = Object.fromEntries(shown);
    }
    return out;
  }

  /** Applies a PATCH /settings body; a string is the 400 message. */
  patch(b: Record<string, unknown>): SettingsEffects | string {
    for (const [group, values] of Object.entries(b)) {
      if (values === null) continue;
      if (typeof values !== 'object' || Array.isArray(values)) return `${group} must be an object`;
      for (const key of Object.keys(values)) {
        const name = `${group}.${key}`;
        if (this.mode !== 'local' && LOCAL_ONLY.includes(name)) return `${name} can only be set on the phone`;
      }
    }
    const ping = (b.ping as Record<string, unknown> | null | undefined)?.interval_seconds;
    if (ping !== undefined && ping !== null && (!Number.isInteger(ping) || (ping as number) < 0)) {
      return 'ping.interval_seconds must be a whole number of seconds';
    }
    const key = (b.webhooks as Record<string, unknown> | null | undefined)?.signing_key;
    if (key !== undefined && (typeof key !== 'string' || key === '')) {
      return 'webhooks.signing_key must be a non-empty string';
    }
    // A partial update: a group replaces only the keys it names; null resets a value or a group.
    for (const [group, values] of Object.entries(b)) {
      if (values === null) {
        delete this.store[group];
        continue;
      }
      this.store[group] = { ...this.store[group], ...(values as Record<string, unknown>) };
    }
    return {
      ...(ping !== undefined ? { pingMs: typeof ping === 'number' ? ping * 1000 : null } : {}),
      ...(typeof key === 'string' ? { signingKey: key } : {}),
    };
  }
}
