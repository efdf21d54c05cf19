// Which queued message goes to which SIM in one dispatcher tick: a pure function of what the claim
// transaction read (dispatch.service.ts `claimBatch` reads, calls planClaim, applies the plan).

/** A SIM of the sending pool whose pace row was locked for this tick. */
export interface ReadySim {
  id: string;
  /** Its pace row: the next slot it may send in. */
  nextAt: Date;
  /** What it has left under its day and month caps (null: no cap). */
  remaining: number | null;
}

/** A message the claim may hand out (the fields the plan decides on). */
export interface PlanCandidate {
  id: string;
  /** SIMs it already failed on. */
  tried_sims: readonly string[];
  /** The SIM of an expired claim (null for a queued message). */
  prev_sim: string | null;
  /** The SIM the conversation last used. */
  conv_sim: string | null;
  /** A chat reply: only this SIM may send it. */
  pinned_sim: string | null;
}

export interface PlanSettings {
  /** Time between two messages of one SIM (60 000 / SMS_PER_SIM_PER_MINUTE). */
  intervalMs: number;
  /** The tick's length (SMS_DISPATCH_INTERVAL_MS): a SIM's slots up to now + horizon are usable. */
  horizonMs: number;
  /** Most messages one SIM takes in one tick. */
  maxPerSimPerTick: number;
}

interface Slot {
  start: number;
  cap: number;
}

/**
 * Capacity of each ready SIM in this tick, in the order given. A SIM busy until less than a tick
 * ago continues from its next slot (a late tick catches up, so the rate holds); an idle one starts
 * now (no burst). Never more than `maxPerSimPerTick`, at least one slot, and never more than the
 * `remaining` of its caps (a SIM near its day or month cap takes no more than it has left).
 */
function slotsOf(ready: readonly ReadySim[], now: Date, s: PlanSettings): Map<string, Slot> {
  const horizon = now.getTime() + s.horizonMs;
  const slots = new Map<string, Slot>();
  for (const r of ready) {
    const next = r.nextAt.getTime();
    const start = next >= now.getTime() - s.horizonMs ? next : now.getTime();
    const cap = Math.min(
      s.maxPerSimPerTick,
      Math.max(1, Math.ceil((horizon - start) / s.intervalMs)),
      r.remaining === null ? Number.POSITIVE_INFINITY : Math.max(0, r.remaining),
    );
    slots.set(r.id, { start, cap });
  }
  return slots;
}

/** How many messages the ready SIMs can take in this tick (what the claim reads candidates for). */
export function claimCapacity(ready: readonly ReadySim[], now: Date, s: PlanSettings): number {
  let total = 0;
  for (const slot of slotsOf(ready, now, s).values()) total += slot.cap;
  return total;
}

export interface ClaimPlan<M> {
  /** Messages handed out, in the order taken, each with its SIM. */
  take: { message: M; simId: string }[];
  /** The new pace of each SIM that took something: its next free slot. */
  pace: { sim_id: string; next_at: Date }[];
}

/**
 * Hands out the candidates: expired claims first (oldest first), then queued messages, until the
 * tick's capacity is used. The order given is kept (the queue's fair order, lockQueued): a message
 * is taken only after every earlier one that could go, and `take` lists them in that order; a later
 * message never takes a slot an earlier one could have used.
 * - An expired claim goes back to its SIM while that SIM is in the pool (the device may have its
 *   task already and answers "duplicated" instead of sending twice); with no room there it waits.
 *   If its SIM left the pool, a pinned one waits, others go to any free SIM.
 * - A pinned message (a chat reply) goes only to its SIM, when that SIM has room.
 * - Another queued message goes to its conversation's SIM when that one has room and was not
 *   tried, else to the next free SIM in turn (so a tick spreads its messages).
 * - SIMs a message already failed on (`tried_sims`) are avoided, unless every SIM of the pool has
 *   failed it: then any SIM may try again rather than the message waiting forever.
 * `pool` is the ids of the whole sending pool (ready or not); `ready` the SIMs with a locked pace
 * row, in the order they were locked.
 */
export function planClaim<M extends PlanCandidate>(input: {
  expired: readonly M[];
  queued: readonly M[];
  ready: readonly ReadySim[];
  pool: readonly string[];
  now: Date;
  settings: PlanSettings;
}): ClaimPlan<M> {
  const { settings } = input;
  const slots = slotsOf(input.ready, input.now, settings);
  let total = 0;
  for (const slot of slots.values()) total += slot.cap;
  const inPool = new Set(input.pool);
  const used = new Map<string, number>();

  const take: ClaimPlan<M>['take'] = [];
  const give = (message: M, simId: string) => {
    used.set(simId, (used.get(simId) ?? 0) + 1);
    take.push({ message, simId });
  };
  const hasRoom = (simId: string | null) => {
    const slot = simId ? slots.get(simId) : undefined;
    return slot !== undefined && (used.get(simId!) ?? 0) < slot.cap;
  };
  // Free SIMs in turn, so a tick spreads its messages instead of filling the first SIM.
  const order = [...slots.keys()];
  let turn = 0;
  const anyFree = (exclude: readonly string[]) => {
    for (let i = 0; i < order.length; i++) {
      const id = order[(turn + i) % order.length]!;
      if (hasRoom(id) && !exclude.includes(id)) {
        turn = (turn + i + 1) % order.length;
        return id;
      }
    }
    return undefined;
  };
  const avoid = (m: M) => (input.pool.some((id) => !m.tried_sims.includes(id)) ? m.tried_sims : []);

  for (const m of input.expired) {
    if (m.prev_sim && inPool.has(m.prev_sim)) {
      if (hasRoom(m.prev_sim)) give(m, m.prev_sim);
      continue;
    }
    if (m.pinned_sim) continue; // its SIM is not sendable now: it waits for it
    const sim = anyFree(avoid(m));
    if (sim) give(m, sim);
  }
  for (const m of input.queued) {
    if (m.pinned_sim) {
      if (hasRoom(m.pinned_sim)) give(m, m.pinned_sim);
      if (take.length >= total) break;
      continue;
    }
    const avoided = avoid(m);
    const sim =
      m.conv_sim && hasRoom(m.conv_sim) && !avoided.includes(m.conv_sim) ? m.conv_sim : anyFree(avoided);
    if (sim) give(m, sim);
    if (take.length >= total) break;
  }

  const pace: ClaimPlan<M>['pace'] = [];
  for (const [simId, slot] of slots) {
    const n = used.get(simId) ?? 0;
    if (n > 0) pace.push({ sim_id: simId, next_at: new Date(slot.start + n * settings.intervalMs) });
  }
  return { take, pace };
}
