import {
  countryName,
  type MessageCountriesResponse,
  type ServiceCountryPrice,
  type SetMessageCountryBody,
} from '@simdock/contract';
import type { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { Queryable, Reader } from '../../db/db.ts';
import { type AuditActor, recordAudit } from '../audit/index.ts';
import {
  countryPriceRows,
  deleteMessageCountry,
  lockMessageCountries,
  messageCountryRows,
  setOtherCountriesEnabled,
  upsertMessageCountry,
  writeCountryPrice,
} from './catalogue.queries.ts';
import type { CountryPrice } from './prices.ts';

// ─── Rental prices per country ──────────────────────────────────────────────────────────────────────

/** The country prices of the services (all when `serviceIds` is null), by service id. */
export async function countryPrices(
  q: Reader,
  serviceIds: string[] | null,
): Promise<Map<string, CountryPrice[]>> {
  const out = new Map<string, CountryPrice[]>();
  for (const r of await countryPriceRows(q, serviceIds)) {
    const list = out.get(r.service_id) ?? [];
    list.push({ country: r.country, operator: r.operator, price: r.price });
    out.set(r.service_id, list);
  }
  return out;
}

/** One service's grid, as Service Manager shows it. */
export async function servicePriceGrid(q: Reader, serviceId: string): Promise<ServiceCountryPrice[]> {
  const rows = (await countryPrices(q, [serviceId])).get(serviceId) ?? [];
  return rows.map((r) => ({ country: r.country, operator: r.operator || null, price: Number(r.price) }));
}

/**
 * Sets (or, price null, removes) a service's price for a country or an operator, in the caller's
 * transaction (the caller audits it with the service's name). Returns the price before, if any.
 */
export async function setCountryPrice(
  q: Queryable,
  change: { serviceId: string; country: string; operator: string | null; price: number | null; at: Date },
): Promise<string | null> {
  return writeCountryPrice(q, {
    serviceId: change.serviceId,
    country: change.country,
    operator: change.operator?.trim() ?? '',
    price: change.price === null ? null : change.price.toFixed(2),
    at: change.at,
  });
}

// ─── Message prices and permission per destination country ─────────────────────────────────────────

/** The destinations' rules as the API answers them. */
export async function messageCountries(q: Reader): Promise<MessageCountriesResponse> {
  const { otherCountriesEnabled, countries } = await messageCountryRows(q);
  return {
    code: 1,
    otherCountriesEnabled,
    countries: countries.map((c) => ({
      country: c.country,
      name: countryName(c.country),
      smsPricePerSegment: c.sms_price_per_segment === null ? null : Number(c.sms_price_per_segment),
      mmsPrice: c.mms_price === null ? null : Number(c.mms_price),
      enabled: c.enabled,
    })),
  };
}

/** Exact decimal text of a price the contract accepted (number or text). */
const priceText = (v: string | number | null | undefined): string | null =>
  v === null || v === undefined ? null : typeof v === 'number' ? v.toFixed(4) : v.trim();

/** Lists, changes or removes a destination country, or sets the rule for the others; audited. */
export async function setMessageCountry(
  ctx: AppContext,
  body: z.output<typeof SetMessageCountryBody>,
  actor: AuditActor,
): Promise<MessageCountriesResponse> {
  return ctx.db.tx(async (q) => {
    await lockMessageCountries(q);
    const before = await messageCountries(q);
    const at = ctx.clock.now();
    if (body.otherCountriesEnabled !== undefined)
      await setOtherCountriesEnabled(q, body.otherCountriesEnabled);
    if (body.country !== undefined) {
      if (body.remove) await deleteMessageCountry(q, body.country);
      else {
        const listed = before.countries.find((c) => c.country === body.country);
        await upsertMessageCountry(q, {
          country: body.country,
          sms:
            body.smsPricePerSegment !== undefined
              ? priceText(body.smsPricePerSegment)
              : priceText(listed?.smsPricePerSegment),
          mms: body.mmsPrice !== undefined ? priceText(body.mmsPrice) : priceText(listed?.mmsPrice),
          enabled: body.enabled ?? listed?.enabled ?? true,
          at,
        });
      }
    }
    const after = await messageCountries(q);
    await recordAudit(q, {
      actor,
      kind: 'settings.messageCountry',
      targetId: body.country ?? null,
      targetLabel: body.country ? countryName(body.country) : 'Other countries',
      before: body.country
        ? (before.countries.find((c) => c.country === body.country) ?? null)
        : { otherCountriesEnabled: before.otherCountriesEnabled },
      after: body.country
        ? (after.countries.find((c) => c.country === body.country) ?? null)
        : { otherCountriesEnabled: after.otherCountriesEnabled },
      at,
    });
    return after;
  });
}
