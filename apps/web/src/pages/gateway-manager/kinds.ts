import {
  type DeviceKind,
  type Gateway,
  type GoipMode,
  PHONE_MODE_DEFAULT_URL,
  PHONE_MODES,
  type PhoneMode,
} from '@simdock/contract';
import { type LucideIcon, RadioTower, Router, Smartphone } from 'lucide-react';
import type { MessageKey, TFunction } from '../../i18n/index.tsx';

/** The long name of each device kind (the form's choice) and its short one (the list's badge). */
export const KIND_TEXT: Record<DeviceKind, { long: MessageKey; short: MessageKey; hint: MessageKey }> = {
  ejoin: { long: 'gateways.kindEjoin', short: 'gateways.kindBox', hint: 'gateways.kindEjoinHint' },
  smsgate: { long: 'gateways.kindSmsgate', short: 'gateways.kindPhone', hint: 'gateways.kindSmsgateHint' },
  goip: { long: 'gateways.kindGoip', short: 'gateways.kindGoipShort', hint: 'gateways.kindGoipHint' },
};

/** Each kind's icon: an Ejoin box, a phone, a GoIP box (its lines reach out over the air and UDP). */
export const KIND_ICON: Record<DeviceKind, LucideIcon> = {
  ejoin: Router,
  smsgate: Smartphone,
  goip: RadioTower,
};

export const MODE_TEXT: Record<PhoneMode, { label: MessageKey; hint: MessageKey }> = {
  local: { label: 'gateways.modeLocal', hint: 'gateways.modeLocalHint' },
  cloud: { label: 'gateways.modeCloud', hint: 'gateways.modeCloudHint' },
  private: { label: 'gateways.modePrivate', hint: 'gateways.modePrivateHint' },
};

/** A GoIP box's connection: its lines reach SimDock over UDP, or SimDock uses its web pages. */
export const GOIP_MODE_TEXT: Record<GoipMode, { label: MessageKey; hint: MessageKey; short: MessageKey }> = {
  udp: {
    label: 'gateways.goipModeUdp',
    hint: 'gateways.goipModeUdpHint',
    short: 'gateways.goipModeUdpShort',
  },
  web: {
    label: 'gateways.goipModeWeb',
    hint: 'gateways.goipModeWebHint',
    short: 'gateways.goipModeWebShort',
  },
};

/** The mode when it is a phone's (a GoIP box's is not). */
export function phoneMode(mode: Gateway['mode']): PhoneMode | undefined {
  return (PHONE_MODES as readonly string[]).includes(mode ?? '') ? (mode as PhoneMode) : undefined;
}

/**
 * Device Statistics: an Ejoin box by its MAC (the spec's link); a phone or a GoIP box by the gateway
 * id (they have no MAC).
 */
export function detailsPath(g: Pick<Gateway, 'id' | 'kind' | 'mac'>): string {
  return g.kind === 'ejoin' ? `/details/${g.mac}` : `/details/${g.id}`;
}

/** A SIM's place as the admin knows it: an Ejoin box's port ("1.01"), a phone's slot ("SIM 1") or a GoIP box's line ("Line 1"). */
export function simPlace(kind: DeviceKind, port: string, t: TFunction): string {
  switch (kind) {
    case 'ejoin':
      return port;
    case 'smsgate':
      return t('gateways.simSlot', { slot: port });
    case 'goip':
      return t('gateways.simLine', { line: port });
  }
}

/** The address SimDock calls: a Cloud phone saved without one uses the public server's. */
export function gatewayUrl(g: Pick<Gateway, 'url' | 'mode'>): string {
  const mode = phoneMode(g.mode);
  return g.url || (mode ? (PHONE_MODE_DEFAULT_URL[mode] ?? '') : '');
}

/**
 * The ID line `n` of a GoIP box logs in with: the box's ID followed by the line number (a one-line
 * box may also use the ID alone; the platform takes both).
 */
export function goipLineId(boxId: string, line: number): string {
  return `${boxId}${line}`;
}
