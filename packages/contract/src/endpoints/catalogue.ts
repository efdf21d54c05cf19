import {
  CatalogueCountriesResponse,
  MessageCountriesResponse,
  ServicePricesBody,
  ServicePricesResponse,
  SetMessageCountryBody,
  SetServicePriceBody,
  SetSimOriginBody,
} from '../api/catalogue.ts';
import { Empty } from '../api/common.ts';
import { SetSimNumberResult } from '../api/gateways.ts';
import { endpoint } from '../endpoint.ts';

/**
 * Countries and operators: the countries with stock (Dashboard's filter), rental prices per country
 * (Service Manager), message prices per destination country (Settings), a SIM's country corrected
 * (Gateway Manager).
 */
export const catalogue = {
  countries: endpoint({
    method: 'POST',
    path: '/api/Catalogue/countries',
    access: 'public',
    tag: 'services',
    summary: 'Countries with usable SIMs, their operators and SIM counts',
    body: Empty,
    response: { 200: CatalogueCountriesResponse },
  }),
  servicePrices: endpoint({
    method: 'POST',
    path: '/api/service/prices',
    access: 'admin',
    tag: 'services',
    summary: 'A service’s prices per country and operator',
    body: ServicePricesBody,
    response: { 200: ServicePricesResponse },
    errors: ['service_not_found'],
  }),
  setServicePrice: endpoint({
    method: 'POST',
    path: '/api/service/setPrice',
    access: 'admin',
    tag: 'services',
    summary: 'Set or remove a service’s price for a country or an operator (audited; new orders only)',
    body: SetServicePriceBody,
    response: { 200: ServicePricesResponse },
    errors: ['service_not_found'],
  }),
  messageCountries: endpoint({
    method: 'POST',
    path: '/api/Admin/messageCountries',
    access: 'admin',
    tag: 'admin',
    summary: 'Message prices per destination country, and which countries may be sent to',
    body: Empty,
    response: { 200: MessageCountriesResponse },
  }),
  setMessageCountry: endpoint({
    method: 'POST',
    path: '/api/Admin/setMessageCountry',
    access: 'admin',
    tag: 'admin',
    summary: 'List, change or remove a destination country, or allow or refuse the others (audited)',
    body: SetMessageCountryBody,
    response: { 200: MessageCountriesResponse },
  }),
  setSimOrigin: endpoint({
    method: 'POST',
    path: '/api/Admin/setSimOrigin',
    access: 'admin',
    tag: 'admin: gateways',
    summary: 'Correct a SIM’s country and operator (kept across scans until the card changes; audited)',
    body: SetSimOriginBody,
    response: { 200: SetSimNumberResult },
    errors: ['gateway_not_found', 'sim_not_found'],
  }),
};
