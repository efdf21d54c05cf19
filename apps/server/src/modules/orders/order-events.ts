import type { AppContext } from '../../context.ts';
import { ORDER_EVENTS_CHANNEL, type OrderEvent } from './orders.service.ts';

type Listener = (event: OrderEvent) => void;

/**
 * Fans order events out to this process's SSE clients. Events come from PostgreSQL
 * LISTEN/NOTIFY, so a change made by any server process reaches clients of every process.
 */
export class OrderEventHub {
  private readonly byUser = new Map<string, Set<Listener>>();
  private unlisten?: () => Promise<void>;

  constructor(private readonly ctx: AppContext) {}

  async start(): Promise<void> {
    this.unlisten = await this.ctx.db.listen(ORDER_EVENTS_CHANNEL, (payload) => {
      let event: OrderEvent;
      try {
        event = JSON.parse(payload) as OrderEvent;
      } catch {
        return;
      }
      for (const fn of this.byUser.get(event.userId) ?? []) fn(event);
    });
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
