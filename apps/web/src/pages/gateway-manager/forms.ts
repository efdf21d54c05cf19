import {
  type DeviceKind,
  type Gateway,
  type GatewayForm,
  type GatewayInput,
  type GoipMode,
  gatewayFormProblems,
  isGatewayValid,
  PHONE_MODE_DEFAULT_URL,
  PHONE_MODES,
  type PhoneMode,
} from '@simdock/contract';
import type { MessageKey } from '../../i18n/index.tsx';
import { keyResolver } from '../../lib/forms.ts';

/**
 * What the add/edit modal edits, for every device kind: an Ejoin box uses `mac`, a phone `mode`,
 * `deviceId` and `signingKey`, a GoIP box its connection (`goipMode`) and web login (`webUser`,
 * `webPassword`; its `userName` is the box's ID, its `url` the web interface, required in web mode);
 * the other kinds' fields stay in the form (switching kind back keeps them) but are neither checked
 * nor sent. The passwords and the signing key are write only: blank on edit keeps the stored one.
 */
export interface GatewayFormValues {
  kind: DeviceKind;
  name: string;
  url: string;
  mac: string;
  userName: string;
  password: string;
  isEnable: boolean;
  /** A phone's mode: '' until the admin picks one. */
  mode: PhoneMode | '';
  deviceId: string;
  signingKey: string;
  /** How SimDock reaches a GoIP box: its lines connect over UDP (default) or through its web pages. */
  goipMode: GoipMode;
  webUser: string;
  webPassword: string;
}

/** The fields a rule can blame (each shows a text under it). */
export type CheckedField =
  | 'name'
  | 'url'
  | 'mac'
  | 'userName'
  | 'password'
  | 'mode'
  | 'signingKey'
  | 'webUser'
  | 'webPassword';

export const EMPTY_GATEWAY_FORM: GatewayFormValues = {
  kind: 'ejoin',
  name: '',
  url: '',
  mac: '',
  userName: '',
  password: '',
  isEnable: true,
  mode: '',
  deviceId: '',
  signingKey: '',
  goipMode: 'udp',
  webUser: '',
  webPassword: '',
};

const isPhoneMode = (m: string | null): m is PhoneMode =>
  (PHONE_MODES as readonly (string | null)[]).includes(m);

export function formFromGateway(g: Gateway): GatewayFormValues {
  return {
    kind: g.kind,
    name: g.name,
    url: g.url,
    mac: g.mac,
    userName: g.userName,
    password: '',
    isEnable: g.isEnable,
    mode: isPhoneMode(g.mode) ? g.mode : '',
    deviceId: g.deviceId ?? '',
    signingKey: '',
    goipMode: g.kind === 'goip' && g.mode === 'web' ? 'web' : 'udp',
    webUser: g.webUser ?? '',
    webPassword: '',
  };
}

const isPhone = (v: Pick<GatewayFormValues, 'kind'>) => v.kind === 'smsgate';
const isGoip = (v: Pick<GatewayFormValues, 'kind'>) => v.kind === 'goip';

/** The form as the contract's rule reads it. */
function ruleForm(v: GatewayFormValues): GatewayForm {
  return {
    name: v.name,
    url: v.url,
    mac: v.mac,
    userName: v.userName,
    kind: v.kind,
    mode: isGoip(v) ? v.goipMode : v.mode || undefined,
    webUser: v.webUser,
  };
}

/** A new Cloud or Private phone needs its signing key: SimDock can set it only through the Local API. */
function needsSigningKey(v: GatewayFormValues, editing: boolean): boolean {
  return !editing && isPhone(v) && (v.mode === 'cloud' || v.mode === 'private');
}

/** What the form needs beyond the contract's rule: the secrets the server requires for a new gateway. */
function secretProblems(v: GatewayFormValues, editing: boolean): CheckedField[] {
  const bad: CheckedField[] = [];
  if (!editing && !v.password.trim()) bad.push('password');
  if (needsSigningKey(v, editing) && !v.signingKey.trim()) bad.push('signingKey');
  if (!editing && isGoip(v) && v.goipMode === 'web' && !v.webPassword.trim()) bad.push('webPassword');
  return bad;
}

/**
 * The fields that break the rule: docs/product.md#forms (the contract's `gatewayFormProblems`, the
 * server's rule, kind-aware) plus the password of a new gateway, the signing key of a new Cloud or
 * Private phone and the web password of a new web-mode GoIP box, which the server requires.
 */
export function invalidGatewayFields(v: GatewayFormValues, editing: boolean): CheckedField[] {
  return [...gatewayFormProblems(ruleForm(v)), ...secretProblems(v, editing)];
}

/** The URL hint (and placeholder) of each phone mode. */
export const PHONE_URL_HINT: Record<PhoneMode, MessageKey> = {
  local: 'gateways.phoneUrlHintLocal',
  cloud: 'gateways.phoneUrlHintCloud',
  private: 'gateways.phoneUrlHintPrivate',
};

/** Cloud shows the URL a blank field falls back to. */
export const PHONE_URL_PLACEHOLDER: Record<PhoneMode, string> = {
  local: 'http://192.168.1.60:8080',
  cloud: PHONE_MODE_DEFAULT_URL.cloud ?? '',
  private: 'https://sms.example.com/api/3rdparty/v1',
};

/** What a bad (or server-blamed) field says under it: what it needs, or that it is required. */
export function gatewayFieldText(
  field: CheckedField,
  v: Pick<GatewayFormValues, 'kind' | 'mode' | 'goipMode'>,
  editing: boolean,
): MessageKey {
  switch (field) {
    case 'name':
      return 'rule.nameRequired';
    case 'url':
      if (isGoip(v)) return v.goipMode === 'web' ? 'gateways.goipWebUrlHint' : 'gateways.goipUrlHint';
      return isPhone(v) && v.mode ? PHONE_URL_HINT[v.mode] : 'gateways.urlHint';
    case 'mac':
      return 'gateways.macHint';
    case 'userName':
      return isGoip(v) ? 'gateways.goipIdRequired' : 'rule.usernameRequired';
    case 'password':
      return editing ? 'gateways.passwordHintEdit' : 'rule.passwordRequired';
    case 'mode':
      return 'gateways.modeRequired';
    case 'signingKey':
      return 'gateways.signingKeyRequired';
    case 'webUser':
      return 'gateways.goipWebUserRequired';
    case 'webPassword':
      return editing ? 'gateways.passwordHintEdit' : 'gateways.goipWebPasswordRequired';
  }
}

/** The add/edit form's resolver: the fields `invalidGatewayFields` names, each with its text. */
export const gatewayFormResolver = (editing: boolean) =>
  keyResolver<GatewayFormValues>((v) =>
    Object.fromEntries(invalidGatewayFields(v, editing).map((f) => [f, gatewayFieldText(f, v, editing)])),
  );

/** 'Data is valid' and Save enabled only when this holds. */
export function isGatewayFormValid(v: GatewayFormValues, editing: boolean): boolean {
  return isGatewayValid(ruleForm(v)) && secretProblems(v, editing).length === 0;
}

/**
 * The updateGateway payload: trimmed fields of the chosen kind only, the secrets only when typed.
 * An Ejoin box is sent as the spec's gateway (no kind: the contract's default); a phone with its
 * kind, mode and device id (blank: the account's only phone); a GoIP box with its kind, connection
 * and web login, and no MAC.
 */
export function toGatewayInput(v: GatewayFormValues, id?: string): GatewayInput {
  const input: GatewayInput = {
    name: v.name.trim(),
    url: v.url.trim(),
    userName: v.userName.trim(),
    isEnable: v.isEnable,
  };
  if (id) input.id = id;
  if (isPhone(v)) {
    input.kind = 'smsgate';
    if (v.mode) input.mode = v.mode;
    input.deviceId = v.deviceId.trim();
    if (v.signingKey.trim()) input.signingKey = v.signingKey.trim();
  } else if (isGoip(v)) {
    input.kind = 'goip';
    input.mode = v.goipMode;
    // Absent clears a stored web login.
    if (v.webUser.trim()) input.webUser = v.webUser.trim();
    if (v.webPassword.trim()) input.webPassword = v.webPassword;
  } else {
    input.mac = v.mac.trim();
  }
  if (v.password.trim()) input.password = v.password;
  return input;
}
