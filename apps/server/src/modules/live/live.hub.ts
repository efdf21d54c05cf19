import type { LiveMessage } from '@simdock/contract';
import type { AppContext } from '../../context.ts';
import { type AppEvent, listenEvents } from '../../events.ts';

type Listener = (message: LiveMessage) => void;

/**
 * Fans events out to this process's live streams. Events come from PostgreSQL LISTEN/NOTIFY, so a
 * change made by any server process reaches the streams of every process. Each event is rendered
 * once per process (by the module that registered its type), only when its user has a stream here.
 */
export class LiveHub {
  private readonly byUser = new Map<string, Set<Listener>>();
  private unlisten?: () => Promise<void>;
  /** Rendering is async: one chain per user keeps that user's events in order; users run in parallel. */
  private readonly chains = new Map<string, Promise<void>>();

  constructor(private readonly ctx: AppContext) {}

  async start(): Promise<void> {
    this.unlisten = await listenEvents(this.ctx.db, (event) => {
      if ('userId' in event && this.byUser.has(event.userId)) {
        const userId = event.userId;
        const next = (this.chains.get(userId) ?? Promise.resolve()).then(() =>
          this.deliver(event as AppEvent & { userId: string }),
        );
        this.chains.set(userId, next);
        void next.then(() => {
          if (this.chains.get(userId) === next) this.chains.delete(userId);
        });
      }
    });
  }

  private async deliver(event: AppEvent & { userId: string }): Promise<void> {
    const render = this.ctx.registry.liveRenderers[event.type];
    if (!render) return;
    try {
      const message = await render(this.ctx, event);
      if (!message) return;
      for (const fn of this.byUser.get(event.userId) ?? []) fn(message);
    } catch (err) {
      this.ctx.log.warn({ err, event }, 'live event could not be rendered');
    }
  }

  subscribe(userId: string, fn: Listener): () => void {
    let set = this.byUser.get(userId);
    if (!set) {
      set = new Set();
      this.byUser.set(userId, set);
    }
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0) this.byUser.delete(userId);
    };
  }

  async stop(): Promise<void> {
    await this.unlisten?.();
    this.byUser.clear();
  }
}
