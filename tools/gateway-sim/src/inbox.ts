// The device's SMS inbox, served by goip_get_sms.html. Ids count up from 1 per boot; `ssrc`
// names the boot so a client notices the restart.
import { randomBytes } from 'node:crypto';
import type { RecvRow } from './protocol.ts';

export interface PullResult {
  sms_num: number;
  next_sms: number;
  data: RecvRow[];
}

export class Inbox {
  ssrc = newSsrc();
  private nextId = 1;
  private items: { id: number; row: RecvRow }[] = [];

  add(row: RecvRow): number {
    const id = this.nextId++;
    this.items.push({ id, row });
    return id;
  }

  get size(): number {
    return this.items.length;
  }

  /** Rows with id >= smsId, at most `num` of them (0 = all); `del` removes what is returned. */
  pull(smsId: number, num: number, del: boolean): PullResult {
    const from = this.items.filter((i) => i.id >= smsId);
    const picked = num > 0 ? from.slice(0, num) : from;
    if (del && picked.length > 0) {
      const gone = new Set(picked.map((p) => p.id));
      this.items = this.items.filter((i) => !gone.has(i.id));
    }
    const last = picked.at(-1);
    return {
      sms_num: picked.length,
      next_sms: last ? last.id + 1 : Math.min(Math.max(1, smsId), this.nextId),
      data: picked.map((p) => p.row),
    };
  }

  /** Reboot: the inbox is emptied, ids restart at 1, the boot gets a new ssrc. */
  reset(): void {
    this.ssrc = newSsrc();
    this.nextId = 1;
    this.items = [];
  }
}

function newSsrc(): string {
  return randomBytes(8).toString('hex');
}
