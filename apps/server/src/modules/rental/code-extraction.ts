// Code extraction runs the service pattern on RE2 (linear time, see the contract's pattern.ts).
export { extractCode } from '@simdock/contract';

/** Case-insensitive substring test; an empty textContains accepts every SMS on the SIM. */
export function smsMatchesService(text: string, textContains: string): boolean {
  const needle = textContains.trim().toLowerCase();
  return needle === '' || text.toLowerCase().includes(needle);
}
