import type { LiveMessage } from '@simdock/contract';
import type { AppContext, Listener } from '../../context.ts';
import { listenEvents } from '../../events.ts';
import { runtimeKey } from '../../runtime.ts';
import { SessionsHub } from '../../sessions.ts';

/** One comment line to every open stream this often, so proxies and browsers keep it open. */
const HEARTBEAT_MS = 20_000;

interface LiveStreams {
  /** This process's open streams by user id. */
  hub: SessionsHub<string, LiveMessage>;
  /** One heartbeat timer for every stream: a timer per stream woke an idle server once per stream per
   * HEARTBEAT_MS (bench/RESULTS.md). */
  pings: Set<() => void>;
}

const LIVE_STREAMS = runtimeKey<LiveStreams>('live.streams');

export function liveStreams(ctx: AppContext): LiveStreams {
  return ctx.runtime.get(LIVE_STREAMS, () => ({
    hub: new SessionsHub((err, userId) => ctx.log.warn({ err, userId }, 'live message not delivered')),
    pings: new Set(),
  }));
}

/**
 * Fans events out to this process's live streams. Events come from PostgreSQL LISTEN/NOTIFY, so a
 * change made by any server process reaches the streams of every process. Each event is rendered
 * once per process (by the module that registered its type), only when its user has a stream here,
 * and a user's events reach the stream in order.
 */
export const liveEventsListener: Listener = {
  name: 'live events',
  async start(ctx) {
    const { hub, pings } = liveStreams(ctx);
    const unlisten = await listenEvents(ctx.db, (event) => {
      if (!('userId' in event) || !hub.has(event.userId)) return;
      const render = ctx.registry.liveRenderers[event.type];
      if (!render) return;
      void hub.publish(event.userId, async () => {
        try {
          return (await render(ctx, event)) ?? undefined;
        } catch (err) {
          ctx.log.warn({ err, event }, 'live event could not be rendered');
          return undefined;
        }
      });
    });
    const heartbeat = setInterval(() => {
      for (const ping of pings) ping();
    }, HEARTBEAT_MS);
    heartbeat.unref();
    return async () => {
      clearInterval(heartbeat);
      await unlisten();
      hub.clear();
    };
  },
};
