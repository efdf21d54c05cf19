import { countryName } from '@simdock/contract';

// Every country the browser can name, for pickers: the two-letter codes the platform's region
// names know (there is no list of them in Intl), without the groupings that are not countries.

const NOT_COUNTRIES = new Set([
  'EU',
  'EZ',
  'UN',
  'QO',
  'ZZ',
  'XA',
  'XB',
  'AA',
  'XK',
  'AC',
  'CP',
  'DG',
  'EA',
  'IC',
  'TA',
]);

const lists = new Map<string, { code: string; name: string }[]>();

/** The countries by name in `locale`, sorted by that name. Built once per locale. */
export function countryList(locale: string): { code: string; name: string }[] {
  let list = lists.get(locale);
  if (list) return list;
  const names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
  list = [];
  for (let a = 65; a <= 90; a++)
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (NOT_COUNTRIES.has(code)) continue;
      let name: string | undefined;
      try {
        name = names.of(code);
      } catch {
        name = undefined;
      }
      if (name && name !== code) list.push({ code, name: countryName(code, locale) });
    }
  list.sort((x, y) => x.name.localeCompare(y.name, locale));
  lists.set(locale, list);
  return list;
}
