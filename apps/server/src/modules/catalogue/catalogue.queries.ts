import type { Queryable, Reader } from '../../db/db.ts';

// The price tables: rental prices per (service, country, operator) and message prices and
// permission per destination country. Prices stay exact decimal text from SQL to the ledger.

export interface CountryPriceRow {
  service_id: string;
  country: string;
  /** '' = every operator of the country. */
  operator: string;
  price: string;
}

/** The country prices of some services (all when `serviceIds` is null). */
export async function countryPriceRows(q: Reader, serviceIds: string[] | null): Promise<CountryPriceRow[]> {
  return q.query<CountryPriceRow>(
    `SELECT service_id, country, operator, price::text AS price FROM service_country_prices
      WHERE $1::uuid[] IS NULL OR service_id = ANY($1::uuid[])
      ORDER BY service_id, country, operator`,
    [serviceIds],
  );
}

/** Sets or (price null) removes one price; returns the row as it was before (null: none). */
export async function writeCountryPrice(
  q: Queryable,
  row: { serviceId: string; country: string; operator: string; price: string | null; at: Date },
): Promise<string | null> {
  const [before] = await q.query<{ price: string }>(
    `SELECT price::text AS price FROM service_country_prices
      WHERE service_id = $1 AND country = $2 AND operator = $3 FOR UPDATE`,
    [row.serviceId, row.country, row.operator],
  );
  if (row.price === null) {
    await q.query(
      'DELETE FROM service_country_prices WHERE service_id = $1 AND country = $2 AND operator = $3',
      [row.serviceId, row.country, row.operator],
    );
  } else {
    await q.query(
      `INSERT INTO service_country_prices (service_id, country, operator, price, updated_at)
       VALUES ($1, $2, $3, $4::numeric, $5)
       ON CONFLICT (service_id, country, operator) DO UPDATE SET price = EXCLUDED.price, updated_at = EXCLUDED.updated_at`,
      [row.serviceId, row.country, row.operator, row.price, row.at],
    );
  }
  return before?.price ?? null;
}

export interface MessageCountryRow {
  country: string;
  sms_price_per_segment: string | null;
  mms_price: string | null;
  enabled: boolean;
}

export async function messageCountryRows(q: Reader): Promise<{
  otherCountriesEnabled: boolean;
  countries: MessageCountryRow[];
}> {
  const [settings] = await q.query<{ other_countries_enabled: boolean }>(
    'SELECT other_countries_enabled FROM catalogue_settings',
  );
  const countries = await q.query<MessageCountryRow>(
    `SELECT country, sms_price_per_segment::text AS sms_price_per_segment, mms_price::text AS mms_price, enabled
       FROM message_countries ORDER BY country`,
  );
  return { otherCountriesEnabled: settings?.other_countries_enabled ?? true, countries };
}

export async function upsertMessageCountry(
  q: Queryable,
  row: { country: string; sms: string | null; mms: string | null; enabled: boolean; at: Date },
): Promise<void> {
  await q.query(
    `INSERT INTO message_countries (country, sms_price_per_segment, mms_price, enabled, updated_at)
     VALUES ($1, $2::numeric, $3::numeric, $4, $5)
     ON CONFLICT (country) DO UPDATE SET sms_price_per_segment = EXCLUDED.sms_price_per_segment,
       mms_price = EXCLUDED.mms_price, enabled = EXCLUDED.enabled, updated_at = EXCLUDED.updated_at`,
    [row.country, row.sms, row.mms, row.enabled, row.at],
  );
}

export async function deleteMessageCountry(q: Queryable, country: string): Promise<void> {
  await q.query('DELETE FROM message_countries WHERE country = $1', [country]);
}

export async function setOtherCountriesEnabled(q: Queryable, enabled: boolean): Promise<void> {
  await q.query('UPDATE catalogue_settings SET other_countries_enabled = $1', [enabled]);
}

/** Serialises changes to the message countries (read, change, answer the whole list). */
export async function lockMessageCountries(q: Queryable): Promise<void> {
  await q.query('SELECT 1 FROM catalogue_settings FOR UPDATE');
}
