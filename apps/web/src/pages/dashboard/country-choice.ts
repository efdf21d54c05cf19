import { useCallback, useState } from 'react';

// The Dashboard's country, remembered per browser: a user renting German numbers sees German
// prices again next time. Storage may be off (private mode, a policy): the choice then lasts the visit.

export const COUNTRY_STORAGE_KEY = 'simdock.dashboard.country';

/** The remembered country (two upper-case letters), or undefined for every country. */
export function readCountryChoice(): string | undefined {
  try {
    const v = localStorage.getItem(COUNTRY_STORAGE_KEY);
    return v && /^[A-Z]{2}$/.test(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

export function writeCountryChoice(country: string | undefined): void {
  try {
    if (country) localStorage.setItem(COUNTRY_STORAGE_KEY, country);
    else localStorage.removeItem(COUNTRY_STORAGE_KEY);
  } catch {
    // Not remembered; the choice still holds on this page.
  }
}

export function useCountryChoice(): [string | undefined, (country: string | undefined) => void] {
  const [country, setCountry] = useState(readCountryChoice);
  const choose = useCallback((next: string | undefined) => {
    writeCountryChoice(next);
    setCountry(next);
  }, []);
  return [country, choose];
}
