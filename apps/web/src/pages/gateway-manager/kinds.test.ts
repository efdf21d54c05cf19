import { beforeAll, describe, expect, it } from 'vitest';
import { loadTexts, type TFunction, translateIn } from '../../i18n/index.tsx';
import { detailsPath, gatewayUrl, simPlace } from './kinds.ts';

describe('device kinds', () => {
  beforeAll(() => loadTexts('screens'));

  it('links a box to its MAC and a phone to its gateway id', () => {
    expect(detailsPath({ id: 'g1', kind: 'ejoin', mac: '00:30:f1:aa:bb:cc' })).toBe(
      '/details/00:30:f1:aa:bb:cc',
    );
    expect(detailsPath({ id: 'g7', kind: 'smsgate', mac: '' })).toBe('/details/g7');
  });

  it("names a box's SIM by port and a phone's by slot", () => {
    const t: TFunction = (key, params) => translateIn('en', key, params);
    expect(simPlace('ejoin', '1.01', t)).toBe('1.01');
    expect(simPlace('smsgate', '2', t)).toBe('SIM 2');
  });

  it('shows the public server for a Cloud phone saved without a URL', () => {
    expect(gatewayUrl({ url: '', mode: 'cloud' })).toBe('https://api.sms-gate.app/3rdparty/v1');
    expect(gatewayUrl({ url: 'http://10.0.0.9:8080', mode: 'local' })).toBe('http://10.0.0.9:8080');
    expect(gatewayUrl({ url: 'http://10.0.0.5', mode: null })).toBe('http://10.0.0.5');
  });
});
