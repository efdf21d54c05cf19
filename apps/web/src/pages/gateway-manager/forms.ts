import { type Gateway, type GatewayInput, isGatewayValid, isHttpUrl, normalizeMac } from '@simdock/contract';
import type { MessageKey } from '../../i18n/index.tsx';
import { keyResolver } from '../../lib/forms.ts';

/** What the add/edit modal edits. The password is write only: blank on edit keeps the stored one. */
export interface GatewayFormValues {
  name: string;
  url: string;
  mac: string;
  userName: string;
  password: string;
  isEnable: boolean;
}

export type GatewayField = keyof GatewayFormValues;

export const EMPTY_GATEWAY_FORM: GatewayFormValues = {
  name: '',
  url: '',
  mac: '',
  userName: '',
  password: '',
  isEnable: true,
};

export function formFromGateway(g: Gateway): GatewayFormValues {
  return { name: g.name, url: g.url, mac: g.mac, userName: g.userName, password: '', isEnable: g.isEnable };
}

/**
 * The fields that break the rule: docs/product.md#forms (`isGatewayValid`, the server's rule) plus the
 * password, which the server requires for a new gateway.
 */
export function invalidGatewayFields(v: GatewayFormValues, editing: boolean): GatewayField[] {
  const bad: GatewayField[] = [];
  if (!v.name.trim()) bad.push('name');
  if (!isHttpUrl(v.url.trim())) bad.push('url');
  if (normalizeMac(v.mac) === undefined) bad.push('mac');
  if (!v.userName.trim()) bad.push('userName');
  if (!editing && !v.password.trim()) bad.push('password');
  return bad;
}

/** What a bad (or server-blamed) field says under it: what it needs, or that it is required. */
export function gatewayFieldText(field: Exclude<GatewayField, 'isEnable'>, editing: boolean): MessageKey {
  switch (field) {
    case 'name':
      return 'rule.nameRequired';
    case 'url':
      return 'gateways.urlHint';
    case 'mac':
      return 'gateways.macHint';
    case 'userName':
      return 'rule.usernameRequired';
    case 'password':
      return editing ? 'gateways.passwordHintEdit' : 'rule.passwordRequired';
  }
}

/** The add/edit form's resolver: the fields `invalidGatewayFields` names, each with its text. */
export const gatewayFormResolver = (editing: boolean) =>
  keyResolver<GatewayFormValues>((v) =>
    Object.fromEntries(
      invalidGatewayFields(v, editing).map((f) => [
        f,
        gatewayFieldText(f as Exclude<GatewayField, 'isEnable'>, editing),
      ]),
    ),
  );

/** 'Data is valid' and Save enabled only when this holds. */
export function isGatewayFormValid(v: GatewayFormValues, editing: boolean): boolean {
  return isGatewayValid(v) && (editing || v.password.trim() !== '');
}

/** The updateGateway payload: trimmed fields, the password only when one was typed. */
export function toGatewayInput(v: GatewayFormValues, id?: string): GatewayInput {
  const input: GatewayInput = {
    name: v.name.trim(),
    url: v.url.trim(),
    mac: v.mac.trim(),
    userName: v.userName.trim(),
    isEnable: v.isEnable,
  };
  if (id) input.id = id;
  if (v.password.trim()) input.password = v.password;
  return input;
}
