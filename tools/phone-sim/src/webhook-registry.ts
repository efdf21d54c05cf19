// The webhooks registered on the phone: registering one (the rules of POST /webhooks), listing,
// deleting, and raising an event to every webhook that asked for it.
import { isEvent, type Mode, nanoid, type WebhookEvent } from './model.ts';
import type { Webhook, WebhookSender } from './webhooks.ts';

export interface RegistryContext {
  mode: Mode;
  deviceId: string;
  allowHttpWebhooks: boolean;
  rand: () => number;
  sender: WebhookSender;
  /** A device of this account (this phone, or a listed one not removed). */
  knownDevice(id: string): boolean;
}

export class WebhookRegistry {
  private readonly hooks = new Map<string, Webhook>();

  constructor(private readonly c: RegistryContext) {}

  list(): Webhook[] {
    return [...this.hooks.values()].map((h) => ({ ...h }));
  }

  delete(id: string): boolean {
    return this.hooks.delete(id);
  }

  /** Registers the webhook a POST /webhooks body describes; a string is the 400 message. */
  register(b: Record<string, unknown>): Webhook | string {
    const { id, url, event, deviceId } = b;
    if (id !== undefined && id !== null && (typeof id !== 'string' || id.length > 36 || id === '')) {
      return 'id must be a string of at most 36 characters';
    }
    if (!isEvent(event)) return 'unknown event';
    if (typeof url !== 'string' || !this.urlAllowed(url)) return 'url must be https://';
    if (
      deviceId !== undefined &&
      deviceId !== null &&
      (typeof deviceId !== 'string' || !this.c.knownDevice(deviceId))
    ) {
      return this.c.mode === 'local' ? 'Invalid device ID' : 'device not found';
    }
    // A given id replaces that webhook: registration is idempotent under the caller's id.
    const hook: Webhook = {
      id: typeof id === 'string' ? id : nanoid(this.c.rand),
      deviceId: typeof deviceId === 'string' ? deviceId : null,
      url,
      event,
    };
    this.hooks.set(hook.id, hook);
    return { ...hook };
  }

  /** Sends `payload` to every webhook of `event` for this phone (or for every device). */
  fire(event: WebhookEvent, payload: unknown): void {
    for (const h of this.hooks.values()) {
      if (h.event !== event) continue;
      if (h.deviceId !== null && h.deviceId !== this.c.deviceId) continue;
      this.c.sender.send(h, nanoid(this.c.rand), this.c.deviceId, payload);
    }
  }

  private urlAllowed(url: string): boolean {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return false;
    }
    if (u.protocol === 'https:') return true;
    if (u.protocol !== 'http:') return false;
    if (this.c.allowHttpWebhooks) return true;
    return this.c.mode === 'local' && u.hostname === '127.0.0.1';
  }
}
