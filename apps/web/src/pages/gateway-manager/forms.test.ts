import type { ResolverOptions } from 'react-hook-form';
import { describe, expect, it } from 'vitest';
import {
  EMPTY_GATEWAY_FORM,
  formFromGateway,
  type GatewayFormValues,
  gatewayFieldText,
  gatewayFormResolver,
  invalidGatewayFields,
  isGatewayFormValid,
  toGatewayInput,
} from './forms.ts';

const valid: GatewayFormValues = {
  ...EMPTY_GATEWAY_FORM,
  name: 'Rack 1',
  url: 'http://192.168.1.50',
  mac: '00-1A-2B-3C-4D-5E',
  userName: 'root',
  password: 'root',
  isEnable: true,
};

/** A new Cloud phone with everything it needs. */
const phone: GatewayFormValues = {
  ...EMPTY_GATEWAY_FORM,
  kind: 'smsgate',
  mode: 'cloud',
  name: 'Pixel',
  url: '',
  userName: 'ABCDEF',
  password: 'p4ss-word',
  deviceId: '',
  signingKey: 'k3yk3yk3',
};

describe('gateway form', () => {
  it('is valid with every field, a URL and a MAC of six hex pairs', () => {
    expect(isGatewayFormValid(valid, false)).toBe(true);
    expect(invalidGatewayFields(valid, false)).toEqual([]);
    expect(isGatewayFormValid({ ...valid, mac: '001a2b3c4d5e' }, false)).toBe(true);
    expect(isGatewayFormValid({ ...valid, mac: '00:1a:2b:3c:4d:5e' }, false)).toBe(true);
  });

  it('names the fields that break the rule', () => {
    expect(invalidGatewayFields(EMPTY_GATEWAY_FORM, false)).toEqual([
      'name',
      'url',
      'mac',
      'userName',
      'password',
    ]);
    const bad = { ...valid, url: 'not a url', mac: '00:1a:2b:3c:4d' };
    expect(isGatewayFormValid(bad, false)).toBe(false);
    expect(invalidGatewayFields(bad, false)).toEqual(['url', 'mac']);
    expect(isGatewayFormValid({ ...valid, name: '   ' }, true)).toBe(false);
  });

  it('needs a password to add, not to edit (blank keeps the stored one)', () => {
    const noPass = { ...valid, password: ' ' };
    expect(isGatewayFormValid(noPass, false)).toBe(false);
    expect(invalidGatewayFields(noPass, false)).toEqual(['password']);
    expect(isGatewayFormValid(noPass, true)).toBe(true);
    expect(toGatewayInput(noPass, 'g1')).toEqual({
      id: 'g1',
      name: 'Rack 1',
      url: 'http://192.168.1.50',
      mac: '00-1A-2B-3C-4D-5E',
      userName: 'root',
      isEnable: true,
    });
  });

  it('sends trimmed fields, no id when adding, the password when typed', () => {
    expect(toGatewayInput({ ...valid, name: ' Rack 1 ', isEnable: false })).toEqual({
      name: 'Rack 1',
      url: 'http://192.168.1.50',
      mac: '00-1A-2B-3C-4D-5E',
      userName: 'root',
      password: 'root',
      isEnable: false,
    });
  });
});

describe('gatewayFormResolver', () => {
  const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<GatewayFormValues>;

  it('puts each broken field under its own text; nothing when the form holds', async () => {
    const bad = await gatewayFormResolver(false)(EMPTY_GATEWAY_FORM, undefined, options);
    expect(bad.errors).toEqual({
      name: { type: 'text', message: 'rule.nameRequired' },
      url: { type: 'text', message: 'gateways.urlHint' },
      mac: { type: 'text', message: 'gateways.macHint' },
      userName: { type: 'text', message: 'rule.usernameRequired' },
      password: { type: 'text', message: 'rule.passwordRequired' },
    });
    expect(await gatewayFormResolver(true)({ ...valid, password: '' }, undefined, options)).toEqual({
      values: { ...valid, password: '' },
      errors: {},
    });
  });

  it("a phone's fields: its mode, the URL in that mode's words, the signing key; never the MAC", async () => {
    const blank = { ...EMPTY_GATEWAY_FORM, kind: 'smsgate' as const };
    expect((await gatewayFormResolver(false)(blank, undefined, options)).errors).toEqual({
      name: { type: 'text', message: 'rule.nameRequired' },
      mode: { type: 'text', message: 'gateways.modeRequired' },
      userName: { type: 'text', message: 'rule.usernameRequired' },
      password: { type: 'text', message: 'rule.passwordRequired' },
    });
    const local = { ...phone, mode: 'local' as const, url: 'phone:8080', signingKey: '' };
    expect((await gatewayFormResolver(false)(local, undefined, options)).errors).toEqual({
      url: { type: 'text', message: 'gateways.phoneUrlHintLocal' },
    });
    const priv = { ...phone, mode: 'private' as const, signingKey: ' ' };
    expect((await gatewayFormResolver(false)(priv, undefined, options)).errors).toEqual({
      url: { type: 'text', message: 'gateways.phoneUrlHintPrivate' },
      signingKey: { type: 'text', message: 'gateways.signingKeyRequired' },
    });
  });
});

describe('phone form', () => {
  it('Cloud: the URL may be blank (the public server); the signing key is required to add', () => {
    expect(invalidGatewayFields(phone, false)).toEqual([]);
    expect(isGatewayFormValid(phone, false)).toBe(true);
    expect(isGatewayFormValid({ ...phone, url: 'https://api.sms-gate.app/3rdparty/v1' }, false)).toBe(true);
    expect(invalidGatewayFields({ ...phone, url: 'api.sms-gate.app' }, false)).toEqual(['url']);
    const noKey = { ...phone, signingKey: '  ' };
    expect(isGatewayFormValid(noKey, false)).toBe(false);
    expect(invalidGatewayFields(noKey, false)).toEqual(['signingKey']);
    // Editing: a blank key keeps the stored one.
    expect(isGatewayFormValid({ ...noKey, password: '' }, true)).toBe(true);
  });

  it('Private: a URL is required, and the signing key to add', () => {
    const priv = { ...phone, mode: 'private' as const };
    expect(invalidGatewayFields(priv, false)).toEqual(['url']);
    const ok = { ...priv, url: 'https://sms.example.com/api/3rdparty/v1' };
    expect(isGatewayFormValid(ok, false)).toBe(true);
    expect(invalidGatewayFields({ ...ok, signingKey: '' }, false)).toEqual(['signingKey']);
  });

  it('Local: a URL is required; a blank signing key is allowed (SimDock sets one)', () => {
    const local = { ...phone, mode: 'local' as const, signingKey: '', userName: 'sms' };
    expect(invalidGatewayFields(local, false)).toEqual(['url']);
    const ok = { ...local, url: 'http://192.168.1.60:8080' };
    expect(isGatewayFormValid(ok, false)).toBe(true);
    expect(isGatewayFormValid({ ...ok, password: '' }, false)).toBe(false);
  });

  it('needs a mode; no MAC is asked of a phone, whatever the hidden box field holds', () => {
    const noMode = { ...phone, mode: '' as const };
    expect(isGatewayFormValid(noMode, false)).toBe(false);
    // Before a mode is chosen the URL is not blamed (a Cloud phone may leave it blank)…
    expect(invalidGatewayFields(noMode, false)).toEqual(['mode']);
    // …but one that is no URL at all is.
    expect(invalidGatewayFields({ ...noMode, url: 'nope' }, false)).toEqual(['mode', 'url']);
    expect(invalidGatewayFields({ ...phone, mac: 'not a mac' }, false)).toEqual([]);
  });

  it('lists every broken field in the rule order, each once', () => {
    const bad = { ...phone, name: ' ', mode: 'local' as const, url: '', userName: '', password: '' };
    expect(invalidGatewayFields(bad, false)).toEqual(['name', 'url', 'userName', 'password']);
  });
});

describe('gateway payload', () => {
  it('a phone: its kind, mode, device id and signing key, and no MAC', () => {
    expect(
      toGatewayInput({ ...phone, mac: '00-1A-2B-3C-4D-5E', deviceId: ' PyDmBQZZXYmyxMwED8Fzy ' }),
    ).toEqual({
      kind: 'smsgate',
      mode: 'cloud',
      name: 'Pixel',
      url: '',
      userName: 'ABCDEF',
      password: 'p4ss-word',
      deviceId: 'PyDmBQZZXYmyxMwED8Fzy',
      signingKey: 'k3yk3yk3',
      isEnable: true,
    });
  });

  it('a phone on edit: blank secrets are left out (the stored ones stay); a blank device id is sent', () => {
    expect(toGatewayInput({ ...phone, mode: 'local', password: '', signingKey: ' ' }, 'g7')).toEqual({
      id: 'g7',
      kind: 'smsgate',
      mode: 'local',
      name: 'Pixel',
      url: '',
      userName: 'ABCDEF',
      deviceId: '',
      isEnable: true,
    });
  });

  it('a box: the spec gateway, with its MAC and none of the phone fields', () => {
    const input = toGatewayInput({ ...valid, mode: 'cloud', deviceId: 'x', signingKey: 'y' });
    expect(input).toEqual({
      name: 'Rack 1',
      url: 'http://192.168.1.50',
      mac: '00-1A-2B-3C-4D-5E',
      userName: 'root',
      password: 'root',
      isEnable: true,
    });
  });

  it('the form of a saved phone starts from its fields, the secrets blank', () => {
    expect(
      formFromGateway({
        id: 'g7',
        name: 'Pixel',
        url: '',
        mac: '',
        userName: 'ABCDEF',
        isEnable: false,
        totalSIM: 2,
        lastUpdate: null,
        onlineStatus: 'Offline',
        pushUrls: { status: '', sms: '', report: '', base: 'https://x/api/gw/g7/s' },
        kind: 'smsgate',
        mode: 'cloud',
        deviceId: null,
        model: null,
        hasSigningKey: true,
        webUser: null,
        hasWebPassword: false,
        deviceServer: null,
        canUssd: false,
      }),
    ).toEqual({ ...phone, isEnable: false, password: '', signingKey: '', deviceId: '' });
  });
});

/** A new GoIP box: its ID and the lines' password; no URL, no MAC. */
const goip: GatewayFormValues = {
  ...EMPTY_GATEWAY_FORM,
  kind: 'goip',
  name: 'Shop 7',
  url: '',
  userName: 'shop7',
  password: 'line-pass',
};

describe('GoIP form', () => {
  it('needs a name, a box ID and (to add) a password; the URL may stay blank; never a MAC', () => {
    expect(invalidGatewayFields(goip, false)).toEqual([]);
    expect(isGatewayFormValid(goip, false)).toBe(true);
    expect(isGatewayFormValid({ ...goip, mac: 'not a mac', mode: 'cloud' }, false)).toBe(true);
    expect(invalidGatewayFields({ ...EMPTY_GATEWAY_FORM, kind: 'goip' }, false)).toEqual([
      'name',
      'userName',
      'password',
    ]);
    // Editing: a blank password keeps the stored one.
    expect(isGatewayFormValid({ ...goip, password: '' }, true)).toBe(true);
  });

  it('takes a web interface URL only as http(s)', () => {
    expect(isGatewayFormValid({ ...goip, url: 'http://192.168.1.70' }, false)).toBe(true);
    expect(invalidGatewayFields({ ...goip, url: '192.168.1.70' }, false)).toEqual(['url']);
    expect(invalidGatewayFields({ ...goip, url: 'ftp://box' }, false)).toEqual(['url']);
  });

  it("refuses a box ID its lines could not be told apart by (the contract's isGoipBoxId)", () => {
    for (const id of ['shop 7', 'a;b', 'a:b', 'x'.repeat(65)])
      expect(invalidGatewayFields({ ...goip, userName: id }, false)).toEqual(['userName']);
    for (const id of ['goip', 'Shop_7-a.b', 'x'.repeat(64)])
      expect(invalidGatewayFields({ ...goip, userName: id }, false)).toEqual([]);
  });

  it("puts the box's own words under its fields", async () => {
    const options = { fields: {}, shouldUseNativeValidation: false } as ResolverOptions<GatewayFormValues>;
    const bad = { ...goip, name: '', url: 'box', userName: 'shop 7', password: '' };
    expect((await gatewayFormResolver(false)(bad, undefined, options)).errors).toEqual({
      name: { type: 'text', message: 'rule.nameRequired' },
      url: { type: 'text', message: 'gateways.goipUrlHint' },
      userName: { type: 'text', message: 'gateways.goipIdRequired' },
      password: { type: 'text', message: 'rule.passwordRequired' },
    });
  });

  it('sends its kind, ID, URL and password, and none of the other kinds’ fields', () => {
    expect(
      toGatewayInput({
        ...goip,
        name: ' Shop 7 ',
        mac: '00-1A-2B-3C-4D-5E',
        mode: 'cloud',
        deviceId: 'x',
        signingKey: 'y',
      }),
    ).toEqual({
      kind: 'goip',
      mode: 'udp',
      name: 'Shop 7',
      url: '',
      userName: 'shop7',
      password: 'line-pass',
      isEnable: true,
    });
    expect(toGatewayInput({ ...goip, url: ' http://10.0.0.7 ', password: '' }, 'g9')).toEqual({
      id: 'g9',
      kind: 'goip',
      mode: 'udp',
      name: 'Shop 7',
      url: 'http://10.0.0.7',
      userName: 'shop7',
      isEnable: true,
    });
  });

  it('in web mode needs the web URL and login, and (to add) the web password', () => {
    const web = { ...goip, goipMode: 'web' as const };
    expect(invalidGatewayFields(web, false)).toEqual(['url', 'webUser', 'webPassword']);
    const full = { ...web, url: 'http://10.0.0.7', webUser: 'admin', webPassword: 'box-pw' };
    expect(isGatewayFormValid(full, false)).toBe(true);
    // Editing: a blank web password keeps the stored one.
    expect(isGatewayFormValid({ ...full, webPassword: '', password: '' }, true)).toBe(true);
    expect(gatewayFieldText('url', web, false)).toBe('gateways.goipWebUrlHint');
    expect(gatewayFieldText('webUser', web, false)).toBe('gateways.goipWebUserRequired');
    expect(gatewayFieldText('webPassword', web, false)).toBe('gateways.goipWebPasswordRequired');
    expect(toGatewayInput({ ...full, webUser: ' admin ' })).toEqual({
      kind: 'goip',
      mode: 'web',
      name: 'Shop 7',
      url: 'http://10.0.0.7',
      userName: 'shop7',
      password: 'line-pass',
      webUser: 'admin',
      webPassword: 'box-pw',
      isEnable: true,
    });
    // In udp mode a web login is optional, and sent when given (Scan reads the status page with it).
    expect(isGatewayFormValid({ ...goip, webUser: 'admin' }, false)).toBe(true);
  });

  it('the form of a saved web-mode GoIP box keeps its connection and web login, the passwords blank', () => {
    const saved = formFromGateway({
      id: 'g9',
      name: 'Shop 7',
      url: 'http://10.0.0.7',
      mac: '',
      userName: 'shop7',
      isEnable: true,
      totalSIM: 4,
      lastUpdate: null,
      onlineStatus: 'Offline',
      pushUrls: { status: '', sms: '', report: '', base: '' },
      kind: 'goip',
      mode: 'web',
      deviceId: null,
      model: null,
      hasSigningKey: false,
      webUser: 'admin',
      hasWebPassword: true,
      deviceServer: { host: 'sms.example.com', port: 44444 },
      canUssd: true,
    });
    expect(saved).toMatchObject({
      goipMode: 'web',
      mode: '',
      webUser: 'admin',
      webPassword: '',
      password: '',
    });
  });

  it('the form of a saved GoIP box starts from its fields, the password blank', () => {
    expect(
      formFromGateway({
        id: 'g9',
        name: 'Shop 7',
        url: '',
        mac: '',
        userName: 'shop7',
        isEnable: true,
        totalSIM: 4,
        lastUpdate: null,
        onlineStatus: 'Offline',
        pushUrls: { status: '', sms: '', report: '', base: '' },
        kind: 'goip',
        mode: null,
        deviceId: null,
        model: null,
        hasSigningKey: false,
        webUser: null,
        hasWebPassword: false,
        deviceServer: { host: 'sms.example.com', port: 44444 },
        canUssd: true,
      }),
    ).toEqual({ ...goip, password: '' });
  });
});
