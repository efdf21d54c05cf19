/** SMS longer than this are cut before matching: bounds regex work per message. */
const MAX_SCAN = 2000;

/** Case-insensitive substring test; an empty textContains accepts every SMS on the SIM. */
export function smsMatchesService(text: string, textContains: string): boolean {
  const needle = textContains.trim().toLowerCase();
  return needle === '' || text.toLowerCase().includes(needle);
}

/**
 * The service pattern extracts the code: its first capture group when it has one, otherwise the
 * whole match. Undefined when the SMS holds no code.
 */
export function extractCode(text: string, pattern: string): string | undefined {
  let re: RegExp;
  try {
    re = new RegExp(pattern);
  } catch {
    return undefined;
  }
  const m = re.exec(text.slice(0, MAX_SCAN));
  if (!m) return undefined;
  const code = m.length > 1 ? m.slice(1).find((g) => g !== undefined) : m[0];
  return code === undefined || code === '' ? undefined : code;
}
