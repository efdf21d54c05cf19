// Countries by their ISO 3166-1 alpha-2 codes: names from the platform's own locale data (every
// browser and Node carry it), flags as the two regional-indicator letters that render as one.

const names = new Map<string, Intl.DisplayNames>();

/** A country's name in `locale` ("DE" → "Germany"); the code itself when the platform has no name. */
export function countryName(iso: string, locale = 'en'): string {
  let d = names.get(locale);
  if (!d) {
    d = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
    names.set(locale, d);
  }
  try {
    const name = d.of(iso.toUpperCase());
    // ZZ is the "unknown region" code: its name says nothing a code would not.
    return name && iso.toUpperCase() !== 'ZZ' ? name : iso;
  } catch {
    return iso;
  }
}

/** The flag emoji of a country ("DE" → 🇩🇪); empty for anything that is not two letters. */
export function countryFlag(iso: string): string {
  const code = iso.toUpperCase();
  if (!/^[A-Z]{2}$/.test(code)) return '';
  return String.fromCodePoint(...[...code].map((c) => 0x1f1e6 + c.charCodeAt(0) - 65));
}
