import { type DeviceKind, type Gateway, PHONE_MODE_DEFAULT_URL, type PhoneMode } from '@simdock/contract';
import type { MessageKey, TFunction } from '../../i18n/index.tsx';

/** The long name of each device kind (the form's choice) and its short one (the list's badge). */
export const KIND_TEXT: Record<DeviceKind, { long: MessageKey; short: MessageKey; hint: MessageKey }> = {
  ejoin: { long: 'gateways.kindEjoin', short: 'gateways.kindBox', hint: 'gateways.kindEjoinHint' },
  smsgate: { long: 'gateways.kindSmsgate', short: 'gateways.kindPhone', hint: 'gateways.kindSmsgateHint' },
};

export const MODE_TEXT: Record<PhoneMode, { label: MessageKey; hint: MessageKey }> = {
  local: { label: 'gateways.modeLocal', hint: 'gateways.modeLocalHint' },
  cloud: { label: 'gateways.modeCloud', hint: 'gateways.modeCloudHint' },
  private: { label: 'gateways.modePrivate', hint: 'gateways.modePrivateHint' },
};

/** Device Statistics: a box by its MAC (the spec's link), a phone by the gateway id (it has no MAC). */
export function detailsPath(g: Pick<Gateway, 'id' | 'kind' | 'mac'>): string {
  return g.kind === 'smsgate' ? `/details/${g.id}` : `/details/${g.mac}`;
}

/** A SIM's place as the admin knows it: a box's port ("1.01") or a phone's slot ("SIM 1"). */
export function simPlace(kind: DeviceKind, port: string, t: TFunction): string {
  return kind === 'smsgate' ? t('gateways.simSlot', { slot: port }) : port;
}

/** The address SimDock calls: a Cloud phone saved without one uses the public server's. */
export function gatewayUrl(g: Pick<Gateway, 'url' | 'mode'>): string {
  return g.url || (g.mode ? (PHONE_MODE_DEFAULT_URL[g.mode] ?? '') : '');
}
