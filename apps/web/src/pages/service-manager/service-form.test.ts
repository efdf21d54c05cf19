import { SERVICE_DEFAULTS, type Service } from '@simdock/contract';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import {
  emptyServiceForm,
  filterServices,
  formFromService,
  serverFieldError,
  serviceFormResolver,
  servicePatternProblem,
  toServiceInput,
} from './service-form.ts';

const service: Service = {
  id: '6f1c1e0e-2b8e-4c53-9d59-3c1c2d1e0a01',
  name: 'Telegram',
  code: 'tg',
  description: 'Telegram login codes',
  price: 0.5,
  available: 3,
  rentTimeMinutes: 15,
  isRepeatable: true,
  stock: 40,
  pattern: 'code[: ]+(\\d{5})',
  textContains: 'telegram',
  isEnable: false,
};

const resolve = (values: ReturnType<typeof emptyServiceForm>) =>
  serviceFormResolver(values, undefined, { fields: {}, shouldUseNativeValidation: false });

describe('service form (docs/product.md)', () => {
  it('starts with the spec defaults: price 1, rent time 20, the digits pattern', () => {
    const v = emptyServiceForm();
    // Written as every money field shows amounts (formatMoneyInput).
    expect(v.price).toBe('1.00');
    expect(v.rentTimeMinutes).toBe('20');
    expect(v.pattern).toBe(SERVICE_DEFAULTS.pattern);
    expect(v.isEnable).toBe(true);
    expect(v.isRepeatable).toBe(false);
  });

  it('round-trips a service into the form and back into the update body', () => {
    expect(toServiceInput(formFromService(service), service.id)).toEqual({
      id: service.id,
      name: 'Telegram',
      code: 'tg',
      description: 'Telegram login codes',
      price: 0.5,
      stock: 40,
      rentTimeMinutes: 15,
      pattern: 'code[: ]+(\\d{5})',
      textContains: 'telegram',
      isRepeatable: true,
      isEnable: false,
    });
  });

  it('trims text, coerces numbers (non-numeric → 0) and fills an empty pattern with the default', () => {
    const body = toServiceInput({
      ...emptyServiceForm(),
      name: '  WhatsApp ',
      code: ' wa ',
      price: ' 2.5 ',
      stock: 'lots',
      rentTimeMinutes: '',
      pattern: '   ',
      textContains: ' WhatsApp ',
    });
    expect(body).toMatchObject({
      name: 'WhatsApp',
      code: 'wa',
      price: 2.5,
      stock: 0,
      rentTimeMinutes: 0,
      pattern: SERVICE_DEFAULTS.pattern,
      textContains: 'WhatsApp',
    });
    expect(body).not.toHaveProperty('id');
  });

  it('reports the rule keys of validateService and the pattern problem', async () => {
    const res = await resolve({
      ...emptyServiceForm(),
      name: ' ',
      price: '0',
      stock: '-1',
      rentTimeMinutes: '-5',
      pattern: '(\\d)\\1',
    });
    expect(res.errors).toEqual({
      name: { type: 'rule', message: 'nameRequired' },
      code: { type: 'rule', message: 'codeRequired' },
      price: { type: 'rule', message: 'priceInvalid' },
      stock: { type: 'rule', message: 'stockInvalid' },
      rentTimeMinutes: { type: 'rule', message: 'rentTimeInvalid' },
      pattern: {
        type: 'pattern',
        message: 'Pattern is not a valid regular expression: invalid escape sequence: `\\1`',
      },
    });
    const ok = await resolve({ ...emptyServiceForm(), name: 'Google', code: 'go' });
    expect(ok.errors).toEqual({});
  });

  it('takes a price of 55 cents and refuses a third decimal', async () => {
    for (const price of ['0.55', '19.99', '2.3', ' 4.35 ']) {
      expect((await resolve({ ...emptyServiceForm(), name: 'G', code: 'g', price })).errors).toEqual({});
    }
    const res = await resolve({ ...emptyServiceForm(), name: 'G', code: 'g', price: '0.555' });
    expect(res.errors).toEqual({ price: { type: 'rule', message: 'priceDecimals' } });
  });

  it('checks patterns with the contract: empty is the default, broken ones are explained', () => {
    expect(servicePatternProblem('')).toBeUndefined();
    expect(servicePatternProblem('G-(\\d{6})')).toBeUndefined();
    expect(servicePatternProblem('(\\d')).toMatch(/^Pattern is not a valid regular expression/);
  });

  it('puts a server error under the field it names; a rule text becomes its key', () => {
    expect(
      serverFieldError(new ApiError('Price must be > 0', 400, 'bad_input', 'price', 'Price must be > 0')),
    ).toEqual({ field: 'price', type: 'rule', message: 'priceInvalid' });
    const dup = 'A service with code "tg" already exists.';
    expect(serverFieldError(new ApiError(dup, 409, 'conflict', 'code', dup))).toEqual({
      field: 'code',
      type: 'server',
      message: dup,
    });
    expect(serverFieldError(new ApiError('Service not found.', 404, 'not_found'))).toBeUndefined();
    expect(serverFieldError(new ApiError('x', 400, 'bad_input', 'description', 'x'))).toBeUndefined();
    expect(serverFieldError(new Error('network'))).toBeUndefined();
  });

  it('search matches name, code or description, ignoring case and spaces around', () => {
    const list = [
      service,
      { ...service, id: '2', name: 'WhatsApp', code: 'wa', description: 'Meta messenger' },
      { ...service, id: '3', name: 'Google', code: 'go', description: '' },
    ];
    expect(filterServices(list, '').map((s) => s.code)).toEqual(['tg', 'wa', 'go']);
    expect(filterServices(list, ' TELE ').map((s) => s.code)).toEqual(['tg']);
    expect(filterServices(list, 'go').map((s) => s.code)).toEqual(['go']);
    expect(filterServices(list, 'messenger').map((s) => s.code)).toEqual(['wa']);
    expect(filterServices(list, 'nothing like it')).toEqual([]);
  });
});
