import type { ConfiguredModule } from '../../module.ts';
import { catalogueConfig } from './catalogue.config.ts';
import { catalogueRoutes } from './catalogue.routes.ts';

// The catalogue: countries and operators, and the price tables. It tells a SIM's country and
// operator from what its device reports, the price of a rental in a country (and from an operator),
// and a message's price and permission by its destination's country. Rental, gateways and messaging
// ask it; it asks no other module.

export {
  countryPrices,
  messageCountries,
  messageDestinations,
  servicePriceGrid,
  setCountryPrice,
} from './catalogue.service.ts';
export { countryOfNumber, effectiveOrigin, isCountryCode } from './origin.ts';
export { type CountryPrice, resolvePrice } from './prices.ts';
export { isoOfSmsActivateId, smsActivateId } from './sms-activate-countries.ts';
export { catalogueConfig };

export const catalogueModule: ConfiguredModule<typeof catalogueConfig> = {
  name: 'catalogue',
  tables: ['service_country_prices', 'message_countries', 'catalogue_settings'],
  config: catalogueConfig,
  routes: catalogueRoutes,
};
