// The languages SimDock speaks, and which of them a page served outside the app (the sandbox's and
// the payment simulator's invoice pages) is written in.

export const LANGUAGES = ['en', 'vi'] as const;
export type Language = (typeof LANGUAGES)[number];

/**
 * The language a browser asks for in its Accept-Language header: the highest-ranked (q, then
 * order) of ours; English when it names none of them.
 */
export function preferredLanguage(acceptLanguage: string | undefined): Language {
  const ranked = (acceptLanguage ?? '')
    .split(',')
    .map((part, i) => {
      const [tag = '', ...params] = part.trim().toLowerCase().split(';');
      const q = Number(
        params
          .find((p) => p.trim().startsWith('q='))
          ?.trim()
          .slice(2) ?? 1,
      );
      return { lang: tag.split('-')[0] ?? '', q: Number.isFinite(q) ? q : 0, i };
    })
    .filter((x) => (LANGUAGES as readonly string[]).includes(x.lang) && x.q > 0)
    .sort((a, b) => b.q - a.q || a.i - b.i);
  return (ranked[0]?.lang as Language | undefined) ?? 'en';
}
