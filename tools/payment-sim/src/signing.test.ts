import { describe, expect, it } from 'vitest';
import { deepSort, signedText, signIpn, wireText } from './signing.ts';

// Expected HMACs computed outside Node with
//   printf '%s' '<text>' | openssl dgst -sha512 -hmac s3cret
const payload = {
  payment_id: 1,
  fee: { serviceFee: 0, currency: 'usdttrc20' },
  actually_paid: 10,
  order_description: 'é/x',
  list: [2, { z: 1 }],
};

describe('simulator signing', () => {
  it('node dialect: deep sort, arrays kept, compact, "/" and non-ASCII raw', () => {
    const text = signedText(payload, 'node');
    expect(text).toBe(
      '{"actually_paid":10,"fee":{"currency":"usdttrc20","serviceFee":0},"list":[2,{"z":1}],"order_description":"é/x","payment_id":1}',
    );
    expect(signIpn(payload, 's3cret', 'node').signature).toBe(
      '71d8ccb8334dc716facd76657b2c26d1c76b9080ff44d0739285b1be6afb156df14094ca774237ddfa2b702e1809299811d82dae9f45ebb8eb367b6608da9251',
    );
  });

  it('python dialect: \\u escapes and float amounts with .0', () => {
    const text = signedText(payload, 'python');
    expect(text).toBe(
      '{"actually_paid":10.0,"fee":{"currency":"usdttrc20","serviceFee":0.0},"list":[2,{"z":1}],"order_description":"\\u00e9/x","payment_id":1}',
    );
    expect(signIpn(payload, 's3cret', 'python').signature).toBe(
      'a7dcbee20e33c58f8389da38f1ce865f0351fae22e9352e19439f79a26995a1ce35b25a7455e3b2a41e1ab6d380341b55f7b70e0ec8e18fb02b502e40e282e10',
    );
  });

  it('keeps the wire body in insertion order (not sorted), python with spaced separators', () => {
    expect(wireText(payload, 'node')).toBe(JSON.stringify(payload));
    expect(wireText(payload, 'python')).toBe(
      '{"payment_id": 1, "fee": {"serviceFee": 0.0, "currency": "usdttrc20"}, "actually_paid": 10.0, "order_description": "\\u00e9/x", "list": [2, {"z": 1}]}',
    );
    expect(JSON.parse(wireText(payload, 'python'))).toEqual(payload);
  });

  it('deepSort sorts nested objects inside arrays and leaves array order alone', () => {
    expect(JSON.stringify(deepSort({ b: [{ d: 1, c: 2 }, 3], a: null }))).toBe(
      '{"a":null,"b":[{"c":2,"d":1},3]}',
    );
  });
});
