import { describe, expect, it } from 'vitest';
import { SERIES, seriesRank } from './chart-series.ts';

describe('History chart series', () => {
  it("sorts the legend in the bars' order, not by its (translated) text", () => {
    // What recharts hands the sorter: one item per bar, here in alphabetical order of the names.
    const legend = [
      { dataKey: 'delivered', value: 'Delivered' },
      { dataKey: 'replies', value: 'Replies (messages)' },
      { dataKey: 'sent', value: 'Sent' },
    ];
    const sorted = [...legend].sort((a, b) => seriesRank(a) - seriesRank(b));
    expect(sorted.map((i) => i.dataKey)).toEqual(SERIES.map((s) => s.key));
    expect(SERIES.map((s) => s.key)).toEqual(['sent', 'delivered', 'replies']);
  });

  it('labels the replies bar as messages', () => {
    expect(SERIES.find((s) => s.key === 'replies')?.label).toBe('history.repliesMessages');
  });
});
