/** One changed field: its raw name, and its values before and after as text (undefined: absent). */
export interface ChangeLine {
  field: string;
  before?: string;
  after?: string;
}

/** The changed fields of an entry, in order; a create or delete lists all its fields. */
export function changedFields(before: unknown, after: unknown): ChangeLine[] {
  const b = asRecord(before);
  const a = asRecord(after);
  const keys = [...new Set([...Object.keys(b), ...Object.keys(a)])];
  const lines: ChangeLine[] = [];
  for (const k of keys) {
    const bv = show(b[k]);
    const av = show(a[k]);
    if (bv === av) continue;
    lines.push({ field: k, ...(k in b ? { before: bv } : {}), ...(k in a ? { after: av } : {}) });
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
