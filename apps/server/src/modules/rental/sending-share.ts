// SIMs kept for sending: rentals leave a share of the SIMs with role Both free, so bulk SMS and chat
// are never starved by renters holding every SIM (a SIM holding a rental sends nothing).

/**
 * How many of the usable SIMs with role Both rentals must leave free: `percent` of them, rounded
 * down (so a small fleet, fewer than 100/percent such SIMs, keeps none and a single SIM is always
 * rentable; an operator reserves senders there with the Messaging only role).
 */
export function keptForSending(sims: readonly { role: string }[], percent: number): number {
  const both = sims.filter((s) => s.role === 'both').length;
  return Math.floor((both * Math.max(0, Math.min(100, percent))) / 100);
}
