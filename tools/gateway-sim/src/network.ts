// A pretend mobile network: an SMS sent by one simulated SIM to another simulated SIM's number
// arrives there as an incoming SMS. This is what makes the "loop-back" number discovery testable.

export interface NetworkMember {
  /** Deliver to a SIM with this number if this device holds one; true when delivered. */
  receiveFromNetwork(to: string, from: string, text: string): boolean;
}

export function sameNumber(a: string, b: string): boolean {
  const da = a.replace(/\D/g, '');
  const db = b.replace(/\D/g, '');
  if (da === '' || db === '') return false;
  // National vs international spelling: compare the last 10 digits when both have them.
  return da === db || (da.length >= 10 && db.length >= 10 && da.slice(-10) === db.slice(-10));
}

export class SimNetwork {
  private readonly members = new Set<NetworkMember>();

  join(m: NetworkMember): void {
    this.members.add(m);
  }

  leave(m: NetworkMember): void {
    this.members.delete(m);
  }

  deliver(to: string, from: string, text: string): boolean {
    for (const m of this.members) if (m.receiveFromNetwork(to, from, text)) return true;
    return false;
  }
}
