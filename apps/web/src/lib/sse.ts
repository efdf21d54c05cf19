export interface SseMessage {
  event: string;
  data: string;
}

/** Splits a server-sent-events text stream into messages; keeps the unfinished tail. Pure. */
export function parseSseChunk(buffer: string): { messages: SseMessage[]; rest: string } {
  const messages: SseMessage[] = [];
  const blocks = buffer.replace(/\r\n/g, '\n').split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length) messages.push({ event, data: data.join('\n') });
  }
  return { messages, rest };
}

/**
 * Follows a server-sent-events stream with fetch (EventSource cannot send the bearer header) and
 * reconnects with a growing delay until `signal` aborts. `onOpen` runs at every (re)connection,
 * so the caller can refetch what it may have missed.
 */
export async function followSse(
  url: string,
  opts: {
    token: () => string | null;
    onMessage: (m: SseMessage) => void;
    onOpen?: () => void;
    /** The stream was lost (error or end); a reconnection follows after a growing delay. */
    onDown?: () => void;
    signal: AbortSignal;
  },
): Promise<void> {
  let delay = 1000;
  while (!opts.signal.aborted) {
    const token = opts.token();
    if (!token) return;
    try {
      const res = await fetch(url, {
        headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' },
        signal: opts.signal,
      });
      if (res.status === 401 || res.status === 403) return;
      if (!res.ok || !res.body) throw new Error(`stream answered ${res.status}`);
      delay = 1000;
      opts.onOpen?.();
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const parsed = parseSseChunk(buffer + value);
        buffer = parsed.rest;
        for (const m of parsed.messages) opts.onMessage(m);
      }
    } catch {
      if (opts.signal.aborted) return;
    }
    opts.onDown?.();
    await new Promise((r) => setTimeout(r, delay));
    // At most 10 s: pages wait for the connection to come back (live/live.tsx refetches them then).
    delay = Math.min(delay * 2, 10_000);
  }
}
