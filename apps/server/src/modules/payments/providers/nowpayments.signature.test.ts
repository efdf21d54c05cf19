import { assertProperty } from '@simdock/contract/property-seeds';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  canonicalForms,
  rawTokenForm,
  sortDeep,
  verifyNowPaymentsSignature,
} from './nowpayments.signature.ts';

// Signatures below were computed outside Node:
//   printf '%s' '<canonical text>' | openssl dgst -sha512 -hmac ipn-secret
const SECRET = 'ipn-secret';
const V = {
  v1: 'b2003e23f2abe928675a0aae9ce20091dbe694d588cabd059117ff4465d1afe17c4102e8ea6bdeb379fe941f560b38c4a1e1449a0372de81f9193f41acb48bc1',
  arrays:
    'f11b610204488cde5dcb151b5500af01a386c634132785c5c451500effbf33b9c0e568cdca48806140b1ec5ef5e3d448832f98672520cdc77c889afad009a2b3',
  arraysAsObjects:
    'e1c8b90bf0f6cf64e87188fc9393519f264dc3ecb861124be759ceda086fe70164d29c642c051f77326f082cdbef64f2df869c38755581cb5709c3f9f0bee4b8',
  shallow:
    '84b6caa2c2d07c952d6f53962c5cef20b358451285bd5802cf1fb0ae6b7d10a6d823745aef4f1029e4d7adc281c67ac5d1465ee31c71863a21f4779444e916c4',
  cyrillic:
    '835711e4711e79c55f33c0c31071f7587a30647f9068fcaa17550838ba4a2a1364d9202b7bcd2fac6c0f4076d1b71d8194544378b6dd4570a324f5b7c14e5683',
  cyrillicAscii:
    '759ae6f5120ab25b808c3393f9d0b3eff063cf9f3a4eecdd1dc8c8d765aade55c325388559c019b1af15f3ada037c21e838f340e401d2ab68564419b8b86cfb6',
  numbersRaw:
    '42787c84e520579032a099004f8b64c5c39c4d7f03cdf05c49540600932646590bbbe7355415c7b7236581142b1552cd3675ab5de73da4d14df834abb324878a',
  numbersJs:
    '52d281c59d4bc2f33fbcb2d49c0acc838720b28242aa02179c4c6cc7d0c670f67b7fb7296143a03de3a8a95ce64871702961e5e0a04529b76ae47dff126eb6dd',
  slashesEscaped:
    'e9672b5746b2ddb616db41521e600968a8649be5fc743ef6bd55d37daf44a3b8a0a1db7155099c3da3fbe6496fac5f1f182e4bb4ca305f47ba7775c565927944',
};

const ipnUnsorted =
  '{"payment_id":5077125051,"payment_status":"finished","pay_address":"TXyz/abc","price_amount":10,' +
  '"fee":{"currency":"usdttrc20","depositFee":0.035,"withdrawalFee":0,"serviceFee":0.05},' +
  '"actually_paid":10.004321,"order_description":"Top-up / SimDock"}';

const verify = (body: string, sig: string | undefined, secret = SECRET) =>
  verifyNowPaymentsSignature(body, sig, secret);

describe('NOWPayments IPN signature', () => {
  it('verifies a body whose keys (and nested fee keys) arrive unsorted', () => {
    const r = verify(ipnUnsorted, V.v1);
    expect(r).toMatchObject({ ok: true, form: 'sorted' });
    if (r.ok) expect(r.body.payment_id).toBe(5077125051);
  });

  it('verifies the same payload sent already sorted, pretty-printed, or with "\\/" on the wire', () => {
    const sorted = JSON.stringify(sortDeep(JSON.parse(ipnUnsorted)));
    expect(verify(sorted, V.v1)).toMatchObject({ ok: true, form: 'sorted' });
    expect(verify(JSON.stringify(JSON.parse(ipnUnsorted), null, 2), V.v1)).toMatchObject({ ok: true });
    const escapedOnWire = ipnUnsorted.replaceAll('/', '\\/');
    expect(escapedOnWire).toContain('Top-up \\/ SimDock');
    expect(verify(escapedOnWire, V.v1)).toMatchObject({ ok: true, form: 'sorted' });
  });

  it('accepts a signature made with escaped slashes (PHP json_encode default) as a fallback', () => {
    expect(verify('{"url":"https:\\/\\/x.io\\/a","id":2}', V.slashesEscaped)).toMatchObject({
      ok: true,
      form: 'sorted-escaped-slashes',
    });
    // sent unescaped but signed escaped: still the fallback
    expect(verify('{"url":"https://x.io/a","id":2}', V.slashesEscaped)).toMatchObject({ ok: true });
  });

  it('keeps arrays as arrays; the arrays-as-objects form is a fallback; the shallow form never passes', () => {
    const body = '{"b":[3,{"y":2,"x":1}],"a":"x"}';
    expect(verify(body, V.arrays)).toMatchObject({ ok: true, form: 'sorted' });
    expect(verify(body, V.arraysAsObjects)).toMatchObject({ ok: true, form: 'sorted-arrays-as-objects' });
    expect(verify(body, V.shallow)).toMatchObject({ ok: false, reason: 'mismatch' });
  });

  it('non-ASCII: raw UTF-8 (Node) first, \\uXXXX (PHP/Python) as fallback, whichever the body carries', () => {
    const raw = '{"payment_id":1,"order_description":"Пополнение"}';
    const escaped =
      '{"payment_id":1,"order_description":"\\u041f\\u043e\\u043f\\u043e\\u043b\\u043d\\u0435\\u043d\\u0438\\u0435"}';
    expect(verify(raw, V.cyrillic)).toMatchObject({ ok: true, form: 'sorted' });
    expect(verify(escaped, V.cyrillic)).toMatchObject({ ok: true, form: 'sorted' });
    expect(verify(raw, V.cyrillicAscii)).toMatchObject({ ok: true, form: 'sorted-ascii' });
    expect(verify(escaped, V.cyrillicAscii)).toMatchObject({ ok: true, form: 'sorted-ascii' });
  });

  it('numbers like 1.0 and 10.50: JSON.stringify loses them, the raw-token form keeps them', () => {
    const body = '{"price_amount":10.50,"payment_id":1,"actually_paid":1.0}';
    expect(verify(body, V.numbersJs)).toMatchObject({ ok: true, form: 'sorted' });
    expect(verify(body, V.numbersRaw)).toMatchObject({ ok: true, form: 'raw-tokens' });
    // the same values written as 1 and 10.5 cannot produce the 1.0 signature
    expect(verify('{"price_amount":10.5,"payment_id":1,"actually_paid":1}', V.numbersRaw)).toMatchObject({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('the raw-token reader keeps escapes and number spellings, and lets the last repeated key win', () => {
    expect(rawTokenForm('{ "b" : [1.0, "\\u00e9\\/"], "a" : {"d":-0.50e+1,"c":null}, "b2": true }')).toBe(
      '{"a":{"c":null,"d":-0.50e+1},"b":[1.0,"\\u00e9\\/"],"b2":true}',
    );
    expect(rawTokenForm('{"a":1,"a":2}')).toBe('{"a":2}');
    expect(() => rawTokenForm('{"a":01}')).toThrow();
  });

  it('refuses a wrong secret, a tampered body, and the API key used as the secret', () => {
    expect(verify(ipnUnsorted, V.v1, 'other-secret')).toMatchObject({ ok: false, reason: 'mismatch' });
    expect(verify(ipnUnsorted.replace('10.004321', '100.004321'), V.v1)).toMatchObject({
      ok: false,
      reason: 'mismatch',
    });
    expect(verify(ipnUnsorted.replace('"finished"', '"finishe\\u0064"'), V.v1)).toMatchObject({ ok: true }); // same value
    expect(verify(ipnUnsorted.replace('}', ',"extra":1}'), V.v1)).toMatchObject({
      ok: false,
      reason: 'mismatch',
    });
  });

  it('refuses a missing, empty or malformed header, and a body that is not a JSON object', () => {
    expect(verify(ipnUnsorted, undefined)).toMatchObject({ ok: false, reason: 'missing_signature' });
    expect(verify(ipnUnsorted, '  ')).toMatchObject({ ok: false, reason: 'missing_signature' });
    expect(verify(ipnUnsorted, 'abc')).toMatchObject({ ok: false, reason: 'malformed_signature' });
    expect(verify(ipnUnsorted, V.v1.slice(0, 127))).toMatchObject({
      ok: false,
      reason: 'malformed_signature',
    });
    expect(verify(ipnUnsorted, V.v1.toUpperCase())).toMatchObject({ ok: true }); // hex case does not matter
    expect(verify('not json', V.v1)).toMatchObject({ ok: false, reason: 'malformed_body' });
    expect(verify('[1,2]', V.v1)).toMatchObject({ ok: false, reason: 'malformed_body' });
    expect(verify('{"a":1} x', V.v1)).toMatchObject({ ok: false, reason: 'malformed_body' });
    expect(verify(`{"a":"${'x'.repeat(70_000)}"}`, V.v1)).toMatchObject({
      ok: false,
      reason: 'malformed_body',
    });
    expect(() => verify(ipnUnsorted, V.v1, '')).toThrow(/secret/);
  });

  it("property: re-sorting the body's own tokens equals JSON.stringify of the deep-sorted value", async () => {
    const key = fc.string().map((s) => `k${s}`); // integer-like keys order differently in JS objects
    const { tree } = fc.letrec((tie) => ({
      tree: fc.oneof({ depthSize: 'small' }, fc.jsonValue({ maxDepth: 0 }), tie('arr'), tie('obj')),
      arr: fc.array(tie('tree'), { maxLength: 4 }),
      obj: fc.dictionary(key, tie('tree'), { maxKeys: 5 }),
    }));
    await assertProperty(
      fc.property(fc.dictionary(key, tree, { maxKeys: 6 }), (obj) => {
        const body = JSON.stringify(obj);
        const expected = JSON.stringify(sortDeep(JSON.parse(body)));
        expect(canonicalForms(body)[0]).toEqual({ form: 'sorted', text: expected });
        expect(rawTokenForm(body)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});
