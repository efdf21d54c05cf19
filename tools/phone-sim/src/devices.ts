// The devices of the account as GET /device(s) lists them: this phone with its SIMs (masked in
// Cloud/Private), and the account's other phones, which never come online.
import { type Mode, maskSim } from './model.ts';
import type { OtherDevice, SlotConfig } from './options.ts';

export interface DirectoryContext {
  mode: Mode;
  deviceId: string;
  name: string;
  slots: (SlotConfig | null)[];
  simReporting: boolean;
  /** Cloud/Private: the account's other phones (Local has none). */
  others: OtherDevice[];
}

export class DeviceDirectory {
  private readonly createdAt = new Date().toISOString();

  constructor(private readonly c: DirectoryContext) {}

  list() {
    return [this.self(), ...this.c.others.map((d) => this.other(d))];
  }

  /** A device of this account (this phone, or a listed one not removed). */
  known(id: string): boolean {
    return id === this.c.deviceId || this.c.others.some((d) => d.id === id && !d.deletedAt);
  }

  private self() {
    const local = this.c.mode === 'local';
    const hide = (v: string | null) => (local ? v : maskSim(v));
    const simCards = this.c.slots.flatMap((s, i) =>
      s
        ? [
            {
              slotIndex: i,
              simNumber: i + 1,
              phoneNumber: hide(s.phoneNumber),
              carrierName: hide(s.carrierName),
              iccid: hide(s.iccid),
            },
          ]
        : [],
    );
    return {
      id: this.c.deviceId,
      name: this.c.name,
      createdAt: this.createdAt,
      updatedAt: this.createdAt,
      lastSeen: new Date().toISOString(),
      ...(this.c.simReporting ? { simCards } : {}),
    };
  }

  private other(d: OtherDevice) {
    const at = this.createdAt;
    return {
      id: d.id,
      name: d.name,
      createdAt: at,
      updatedAt: at,
      lastSeen: at,
      ...(d.deletedAt ? { deletedAt: d.deletedAt } : {}),
      simCards: [],
    };
  }
}
