/** A minimal server-sent-events client over fetch (it can send the bearer header). */
export interface SseClient {
  events: { event: string; data: string }[];
  next(
    predicate: (e: { event: string; data: string }) => boolean,
    timeoutMs?: number,
  ): Promise<{ event: string; data: string }>;
  close(): void;
}

export async function openSse(
  url: string,
  token: string,
  onEvent?: (e: { event: string; data: string }) => void,
): Promise<SseClient> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
  if (!res.ok || !res.body) throw new Error(`SSE open failed: ${res.status}`);
  const events: { event: string; data: string }[] = [];
  const waiters = new Set<() => void>();
  const decoder = new TextDecoder();
  let buffer = '';
  (async () => {
    const reader = res.body!.getReader();
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, { stream: true });
        let cut = buffer.indexOf('\n\n');
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          let event = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) event = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trim());
          }
          if (data.length) {
            const e = { event, data: data.join('\n') };
            if (onEvent) {
              onEvent(e);
              cut = buffer.indexOf('\n\n');
              continue;
            }
            events.push(e);
            for (const w of waiters) w();
          }
          cut = buffer.indexOf('\n\n');
        }
      }
    } catch {
      // aborted
    }
  })();
  return {
    events,
    next(predicate, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        let seen = 0;
        const check = () => {
          for (; seen < events.length; seen++) {
            if (predicate(events[seen]!)) {
              waiters.delete(check);
              clearTimeout(timer);
              resolve(events[seen]!);
              return;
            }
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error('SSE event timed out'));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    close: () => abort.abort(),
  };
}
