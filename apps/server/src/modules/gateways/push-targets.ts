import type { AppContext, Listener } from '../../context.ts';
import { batchLoader } from '../../db/batch.ts';
import type { Queryable } from '../../db/db.ts';
import { listenEvents, publish } from '../../events.ts';
import { runtimeKey } from '../../runtime.ts';
import { findPushTargets, type PushTarget } from './gateways.queries.ts';

/**
 * How long a push target read from the database is used without a change event. Edits and deletes
 * publish a `gateway` event that every process hears at once; the limit only bounds what a missed
 * event (a LISTEN connection that dropped) could leave stale.
 */
export const PUSH_TARGET_TTL_MS = 60_000;

interface PushTargets {
  get(id: string): Promise<PushTarget | undefined>;
  forget(id: string): void;
}

const PUSH_TARGETS = runtimeKey<PushTargets>('gateways.pushTargets');

/**
 * Every device push is authenticated against its gateway's row (secret, MAC, driver). A busy gateway
 * pushes several times a second and the row changes only when an admin edits it, so each server keeps
 * the rows it read (per server, `ctx.runtime`): reading it for every push was a round trip and a
 * plan per SMS (bench/RESULTS.md). Misses of one moment are read in one statement.
 * Unknown ids are not kept: a gateway added a moment ago is found on its first push.
 */
export function pushTargets(ctx: AppContext): PushTargets {
  return ctx.runtime.get(PUSH_TARGETS, () => {
    const kept = new Map<string, { target: PushTarget; until: number }>();
    // A read that started before a change must not keep what it read: forget() moves the epoch.
    let epoch = 0;
    const read = batchLoader(
      async (ids: string[]) => new Map((await findPushTargets(ctx.db, ids)).map((g) => [g.id, g])),
    );
    return {
      async get(id) {
        const hit = kept.get(id);
        if (hit && hit.until > Date.now()) return hit.target;
        const started = epoch;
        const target = await read(id);
        if (target && started === epoch) kept.set(id, { target, until: Date.now() + PUSH_TARGET_TTL_MS });
        return target;
      },
      forget(id) {
        epoch += 1;
        kept.delete(id);
      },
    };
  });
}

/** Inside the transaction that changes or deletes a gateway: every process forgets its row on commit. */
export async function gatewayChanged(q: Queryable, gatewayId: string): Promise<void> {
  await publish(q, { type: 'gateway', gatewayId });
}

/** Edits made through another process (`gateway` events) reach this one's kept push targets. */
export const gatewayChangesListener: Listener = {
  name: 'gateway changes',
  start: (ctx) =>
    listenEvents(ctx.db, (event) => {
      if (event.type === 'gateway') pushTargets(ctx).forget(event.gatewayId);
    }),
};
