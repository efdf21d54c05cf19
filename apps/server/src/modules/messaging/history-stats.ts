import type { HourRow } from './history-stats.queries.ts';

/** A piece's figures counted from the rows. */
export interface ExactRow {
  d: number;
  split: number | null;
  values: number[];
}

// Per-day figures of [from, to) (days of 86,400 s from `from`, the caller's local midnight) from an
// hourly rollup, exact: an hour of the rollup that lies in one day counts for that day; the partial
// hours at the range's edges are counted from the rows. Where `from` is not on a whole hour (a zone
// with a half-hour offset), each day boundary falls inside an hour: the smaller side of that hour is
// counted from the rows and the rest of the hour's rollup goes to the other day, so the rows read are
// at most half an hour per day.

const HOUR = 3_600_000;
const DAY = 86_400_000;

/** A range counted from the rows: inside one day (`d`), and inside the split hour `split` if any. */
export interface Piece {
  a: Date;
  b: Date;
  d: number;
  split: number | null;
}

export interface DayPlan {
  /** The whole hours [lo, hi) read from the rollup (empty when lo >= hi). */
  lo: Date;
  hi: Date;
  /** The ranges counted from the rows, cut at day boundaries. */
  exact: Piece[];
}

/** Which hours come from the rollup and which ranges from the rows. */
export function planDays(from: Date, to: Date): DayPlan & { splits: Map<number, Split> } {
  const f = from.getTime();
  const t = to.getTime();
  const lo = Math.ceil(f / HOUR) * HOUR;
  const hi = Math.floor(t / HOUR) * HOUR;
  const splits = new Map<number, Split>();
  const ranges: [number, number, number | null][] = [];
  if (lo >= hi) ranges.push([f, t, null]);
  else {
    if (f < lo) ranges.push([f, lo, null]);
    if (hi < t) ranges.push([hi, t, null]);
    // Day boundaries strictly inside a whole hour of [lo, hi).
    if ((lo - f) % HOUR !== 0) {
      for (let b = f + DAY; b < hi; b += DAY) {
        const h = Math.floor(b / HOUR) * HOUR;
        if (h < lo) continue;
        const before = b - h <= HOUR / 2;
        ranges.push(before ? [h, b, h] : [b, h + HOUR, h]);
        const dayAfter = Math.floor((b - f) / DAY);
        splits.set(h, {
          exactDay: before ? dayAfter - 1 : dayAfter,
          otherDay: before ? dayAfter : dayAfter - 1,
        });
      }
    }
  }
  // Each piece inside one day, so a count per piece is a count per day.
  const exact: Piece[] = [];
  for (const [a, b, split] of ranges) {
    let start = a;
    while (start < b) {
      const d = Math.floor((start - f) / DAY);
      const end = Math.min(b, f + (d + 1) * DAY);
      exact.push({ a: new Date(start), b: new Date(end), d, split });
      start = end;
    }
  }
  return { lo: new Date(lo), hi: new Date(hi), exact, splits };
}

export interface Split {
  /** The day of the side counted from the rows. */
  exactDay: number;
  /** The day that gets the rest of the hour's rollup. */
  otherDay: number;
}

/** Adds the rollup's hours and the counted rows into `days` (one array of figures per day). */
export function addUp(
  days: number[][],
  from: Date,
  splits: Map<number, Split>,
  hours: HourRow[],
  rows: ExactRow[],
): void {
  const add = (d: number, values: number[], sign = 1) => {
    const day = days[d];
    if (!day) return;
    values.forEach((v, i) => {
      day[i] = (day[i] ?? 0) + sign * v;
    });
  };
  for (const h of hours) {
    const split = splits.get(h.hour.getTime());
    // A split hour: all of it to the other day, less what the rows show on the exact side (below).
    add(split ? split.otherDay : Math.floor((h.hour.getTime() - from.getTime()) / DAY), h.values);
  }
  for (const r of rows) {
    add(r.d, r.values);
    const split = r.split === null ? undefined : splits.get(r.split);
    if (split) add(split.otherDay, r.values, -1);
  }
}
