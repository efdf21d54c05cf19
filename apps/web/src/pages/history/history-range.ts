/** A local calendar day 'YYYY-MM-DD' (what <input type="date"> holds). */
export type DayText = string;

export function todayText(now = new Date()): DayText {
  const p = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

/** The local day's bounds as epoch seconds: its first second and its last (spec: day bounds). */
export function dayBounds(start: DayText, end: DayText): { strTime: number; endTime: number } | null {
  const a = parseDay(start);
  const b = parseDay(end);
  if (!a || !b) return null;
  const endOfDay = new Date(b.getFullYear(), b.getMonth(), b.getDate() + 1).getTime() / 1000 - 1;
  return { strTime: Math.floor(a.getTime() / 1000), endTime: Math.floor(endOfDay) };
}

function parseDay(text: DayText): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(d.getTime()) || d.getDate() !== Number(m[3]) ? null : d;
}

export const RANGE_PRESETS = ['today', 'days7', 'days30'] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
const PRESET_DAYS: Record<RangePreset, number> = { today: 1, days7: 7, days30: 30 };

/** A preset's days, today included: 7 days = the 6 days before today and today. */
export function presetRange(preset: RangePreset, now = new Date()): { start: DayText; end: DayText } {
  const first = new Date(now.getFullYear(), now.getMonth(), now.getDate() - (PRESET_DAYS[preset] - 1));
  return { start: todayText(first), end: todayText(now) };
}

/** The preset a range is, if any (the matching button shows as chosen). */
export function presetOf(range: { start: DayText; end: DayText }, now = new Date()): RangePreset | null {
  return (
    RANGE_PRESETS.find((p) => {
      const r = presetRange(p, now);
      return r.start === range.start && r.end === range.end;
    }) ?? null
  );
}

/**
 * The range a History URL names: its days when both are real days (?start&end), else its preset
 * (?preset=days7, today's days when the link is opened), else today.
 */
export function rangeOfUrl(
  url: { preset: string; start: string; end: string },
  now = new Date(),
): { start: DayText; end: DayText } {
  if (dayBounds(url.start, url.end)) return { start: url.start, end: url.end };
  const preset = RANGE_PRESETS.find((p) => p === url.preset) ?? 'today';
  return presetRange(preset, now);
}
