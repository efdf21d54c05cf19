import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context.ts';
import { runtimeKey } from '../../runtime.ts';
import { Reassembly } from './reassembly.ts';
import type { TokenBucket } from './token-bucket.ts';

/** What this process's SMPP listener holds: its ports, bound sessions, rate buckets, partial messages. */
export interface SmppState {
  /** The ports listened on (known once listening; a free one when the setting is 0). */
  plain?: number;
  tls?: number;
  /** Names this process's rows in smpp_binds (the bind limit counts every process's rows). */
  processId: string;
  /** This process's rows in smpp_binds (its live binds), heartbeated by the listener. */
  bindIds: Set<string>;
  /** Receiving binds (receiver, transceiver) by API key id: an outbox event wakes them. */
  receivers: Map<string, Set<{ pump(): void }>>;
  /** One bucket per system_id, shared by its binds in this process. */
  buckets: Map<string, TokenBucket>;
  parts: Reassembly;
  /** When a bind refusal was last audited, by `system_id|reason` (at most once a minute each). */
  refusalsAudited: Map<string, number>;
  /**
   * Quiet `enquireAfterMs`, a bound session is asked enquire_link; quiet `idleCloseMs`, it is
   * unbound and closed (checked every `tickMs`); `window` submit_sm may be outstanding per bind
   * (one more is answered ESME_RMSGQFUL). A bind's row is refreshed every `heartbeatMs` and
   * counted while seen within `bindStaleMs`. Tests shorten them.
   */
  timing: {
    enquireAfterMs: number;
    idleCloseMs: number;
    tickMs: number;
    window: number;
    heartbeatMs: number;
    bindStaleMs: number;
  };
}

/** Parts of a concatenated message are held this long for the rest of their set. */
export const PARTS_TIMEOUT_MS = 60_000;

const SMPP_STATE = runtimeKey<SmppState>('smpp.state');

/** This process's SMPP state (the module's own; tests read and shorten its timing). */
export function smppState(ctx: AppContext): SmppState {
  return ctx.runtime.get(SMPP_STATE, () => ({
    processId: randomUUID(),
    bindIds: new Set(),
    receivers: new Map(),
    buckets: new Map(),
    parts: new Reassembly(PARTS_TIMEOUT_MS),
    refusalsAudited: new Map(),
    timing: {
      enquireAfterMs: 30_000,
      idleCloseMs: 90_000,
      tickMs: 5_000,
      window: 10,
      heartbeatMs: 30_000,
      bindStaleMs: 90_000,
    },
  }));
}

/** The SMPP ports this process listens on (tests read the free ones picked for SMPP_PORT=0). */
export function smppPorts(ctx: AppContext): { plain?: number; tls?: number } {
  const s = smppState(ctx);
  return { plain: s.plain, tls: s.tls };
}
