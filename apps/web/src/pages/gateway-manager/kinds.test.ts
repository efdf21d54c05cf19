import { beforeAll, describe, expect, it } from 'vitest';
import { loadTexts, type TFunction, translateIn } from '../../i18n/index.tsx';
import { detailsPath, gatewayUrl, goipLineId, simPlace } from './kinds.ts';

describe('device kinds', () => {
  beforeAll(() => loadTexts('screens'));

  it('links a box to its MAC and a phone to its gateway id', () => {
    expect(detailsPath({ id: 'g1', kind: 'ejoin', mac: '00:30:f1:aa:bb:cc' })).toBe(
      '/details/00:30:f1:aa:bb:cc',
    );
    expect(detailsPath({ id: 'g7', kind: 'smsgate', mac: '' })).toBe('/details/g7');
    // A GoIP box has no MAC either: its gateway id.
    expect(detailsPath({ id: 'g9', kind: 'goip', mac: '' })).toBe('/details/g9');
  });

  it("names an Ejoin box's SIM by port, a phone's by slot and a GoIP box's by line", () => {
    const t: TFunction = (key, params) => translateIn('en', key, params);
    expect(simPlace('ejoin', '1.01', t)).toBe('1.01');
    expect(simPlace('smsgate', '2', t)).toBe('SIM 2');
    expect(simPlace('goip', '1', t)).toBe('Line 1');
    expect(simPlace('goip', '16', t)).toBe('Line 16');
  });

  it("names a GoIP box's lines by its ID followed by the line number", () => {
    expect(goipLineId('shop7', 1)).toBe('shop71');
    expect(goipLineId('goip', 12)).toBe('goip12');
  });

  it('shows the public server for a Cloud phone saved without a URL', () => {
    expect(gatewayUrl({ url: '', mode: 'cloud' })).toBe('https://api.sms-gate.app/3rdparty/v1');
    expect(gatewayUrl({ url: 'http://10.0.0.9:8080', mode: 'local' })).toBe('http://10.0.0.9:8080');
    expect(gatewayUrl({ url: 'http://10.0.0.5', mode: null })).toBe('http://10.0.0.5');
  });
});
