/** One line per changed field: "balance: 10.00 → 25.75"; a create or delete lists its fields. */
export function describeChange(before: unknown, after: unknown): string[] {
  const b = asRecord(before);
  const a = asRecord(after);
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  const lines: string[] = [];
  for (const k of keys) {
    const bv = show(b[k]);
    const av = show(a[k]);
    if (bv === av) continue;
    if (!(k in b)) lines.push(`${k}: ${av}`);
    else if (!(k in a)) lines.push(`${k}: ${bv} → —`);
    else lines.push(`${k}: ${bv} → ${av}`);
  }
  return lines;
}

function asRecord(v: unknown): Record<string, unknown> {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function show(v: unknown): string {
  if (v === undefined) return '';
  if (Array.isArray(v)) return v.map(String).join(', ');
  if (v !== null && typeof v === 'object') return JSON.stringify(v);
  return String(v);
}
