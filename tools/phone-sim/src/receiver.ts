// A webhook receiver for tests: answers each POST with the next queued status (then 200) and keeps
// the exact bytes and headers of every request, so a signature can be checked on what arrived.
import { type Recorded, startRecorder } from '@simdock/sim-kit/testkit';

export type Received = Recorded;

export interface Receiver {
  url: string;
  got: Received[];
  close(): Promise<void>;
}

export async function startReceiver(statuses: number[] = []): Promise<Receiver> {
  const queue = [...statuses];
  const rec = await startRecorder({ answer: () => ({ status: queue.shift() ?? 200 }) });
  return { url: rec.url, got: rec.requests, close: () => rec.close() };
}
