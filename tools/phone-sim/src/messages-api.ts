// The /messages endpoints of the third-party API: send (POST), list (GET) and one message's state
// (GET /messages/{id}), as JSON the way the server shows them.
import type { SimReply } from '@simdock/sim-kit';
import { error } from './api-error.ts';
import { validateMessage } from './message-validation.ts';
import { type Mode, nanoid, PREFIX } from './model.ts';
import type { SlotConfig } from './options.ts';
import { type MessageRecord, type Outbox, stateOfMessage } from './outbox.ts';

export interface MessagesContext {
  mode: Mode;
  deviceId: string;
  slots: (SlotConfig | null)[];
  rand: () => number;
  /** Cloud/Private queue limit on Pending messages. */
  maxPending: number | undefined;
  outbox: Outbox;
  /** Where the server lives (for `Location`). */
  url(): string;
  time(ms?: number): string;
  knownDevice(id: string): boolean;
}

export function postMessage(
  c: MessagesContext,
  b: Record<string, unknown>,
  query: URLSearchParams,
): SimReply {
  const v = validateMessage(b, { skipPhoneValidation: query.get('skipPhoneValidation') === 'true' });
  if (typeof v === 'string') return error(400, v);
  if (v.deviceId !== undefined && !c.knownDevice(v.deviceId)) {
    return error(400, c.mode === 'local' ? 'Invalid device ID' : 'device not found');
  }
  const id = v.id ?? nanoid(c.rand);
  if (c.outbox.has(id)) return error(409, 'message with the same ID already exists');
  const deviceId = v.deviceId ?? c.deviceId;
  if (c.maxPending !== undefined) {
    const pending = c.outbox
      .all()
      .filter((x) => x.deviceId === deviceId && stateOfMessage(x) === 'Pending').length;
    if (pending >= c.maxPending) {
      return error(503, `queue limits exceeded: too many pending messages: ${pending} / ${c.maxPending}`);
    }
  }
  // No simNumber: the OSDefault setting, i.e. the first active SIM.
  let simNumber = v.simNumber;
  let simError: string | null = null;
  if (simNumber === null) {
    const first = c.slots.findIndex((s) => s !== null);
    if (first < 0) simError = "Can't send message: No SIMs found";
    else simNumber = first + 1;
  } else if (!c.slots[simNumber - 1]) {
    simError = `Can't send message: SIM ${simNumber} not found`;
  }
  const now = Date.now();
  const m: MessageRecord = {
    id,
    deviceId,
    text: v.text,
    data: v.data,
    simNumber,
    withDeliveryReport: v.withDeliveryReport,
    isEncrypted: v.isEncrypted,
    priority: v.priority,
    createdAt: now,
    recipients: v.phoneNumbers.map((phoneNumber) => ({ phoneNumber, state: 'Pending' })),
    states: { Pending: c.time(now) },
  };
  // Another phone of the account never comes online here: its messages stay Pending.
  c.outbox.add(m, deviceId === c.deviceId ? { simError } : null);
  const headers: Record<string, string> =
    c.mode === 'local' ? {} : { Location: `${c.url()}${PREFIX[c.mode]}/messages/${encodeURIComponent(id)}` };
  return { status: 202, json: messageJson(m, false), headers };
}

export function listMessages(c: MessagesContext, q: URLSearchParams): SimReply {
  const limit = Math.min(Math.max(Number(q.get('limit') ?? 50) || 50, 1), 100);
  const offset = Math.max(Number(q.get('offset') ?? 0) || 0, 0);
  const state = q.get('state');
  const asc = q.get('sort') === 'created_at';
  const content = q.get('includeContent') === 'true';
  const all = c.outbox
    .all()
    .filter((m) => !state || stateOfMessage(m) === state)
    .sort((a, b) => (asc ? a.createdAt - b.createdAt : b.createdAt - a.createdAt));
  return {
    status: 200,
    json: all.slice(offset, offset + limit).map((m) => messageJson(m, content)),
    headers: { 'X-Total-Count': String(all.length) },
  };
}

export function getMessage(c: MessagesContext, id: string): SimReply {
  const m = c.outbox.get(id);
  // Local shows the content; the server keeps only the state.
  return m ? { status: 200, json: messageJson(m, c.mode === 'local') } : error(404, 'message not found');
}

function messageJson(m: MessageRecord, withContent: boolean) {
  return {
    id: m.id,
    deviceId: m.deviceId,
    state: stateOfMessage(m),
    isHashed: false,
    isEncrypted: m.isEncrypted,
    recipients: m.recipients.map((r) => ({ ...r })),
    states: { ...m.states },
    ...(withContent && m.text !== null ? { textMessage: { text: m.text } } : {}),
    ...(withContent && m.data !== null ? { dataMessage: { ...m.data } } : {}),
  };
}
