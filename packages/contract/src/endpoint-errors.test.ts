import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ERROR_STATUS, ErrorBody } from './api/common.ts';
import { type EndpointDeclaration, endpoint } from './endpoint.ts';
import { endpointErrors, endpointResponses } from './endpoint-errors.ts';
import { endpoints } from './endpoints/index.ts';

const all = Object.entries(endpoints).flatMap(([area, decls]) =>
  Object.entries(decls as Record<string, EndpointDeclaration>).map(
    ([name, d]) => [`${area}.${name}`, d] as const,
  ),
);
const errorStatuses = (d: EndpointDeclaration) =>
  Object.keys(endpointResponses(d))
    .map(Number)
    .filter((s) => s >= 400);

describe('the error answers of each declaration', () => {
  it('every declaration that can fail lists its error answers (for OpenAPI and the web)', () => {
    const silent = all.filter(([, d]) => endpointErrors(d).length > 0 && errorStatuses(d).length === 0);
    expect(silent.map(([name]) => name)).toEqual([]);
    expect(all.length).toBeGreaterThan(100);
  });

  it('each error code of a declaration has an answer with its status', () => {
    const missing = all.flatMap(([name, d]) =>
      endpointErrors(d)
        .filter((code) => !errorStatuses(d).includes(ERROR_STATUS[code]))
        .map((code) => `${name}: ${code} (${ERROR_STATUS[code]})`),
    );
    expect(missing).toEqual([]);
  });

  it('come from the endpoint kind and its own refusals, grouped by status', () => {
    const d = endpoint({
      method: 'POST',
      path: '/api/test/rent',
      access: 'admin',
      reauth: true,
      tag: 'test',
      body: z.object({ id: z.string() }),
      errors: ['balance_too_low', 'service_not_found', 'user_not_found'],
      response: { 200: z.object({ code: z.literal(1) }) },
    });
    expect(endpointErrors(d)).toEqual([
      'bad_input',
      'unauthorized',
      'account_inactive',
      'second_factor_required',
      'forbidden',
      'reauth_required',
      'balance_too_low',
      'service_not_found',
      'user_not_found',
    ]);
    const answers: Record<number, z.ZodType | undefined> = endpointResponses(d);
    expect(Object.keys(answers).map(Number)).toEqual([200, 400, 401, 402, 403, 404]);
    expect(answers[404]?.description).toBe('`service_not_found`, `user_not_found`');
    expect(answers[404]?.safeParse({ code: 0, error: 'user_not_found', msg: 'No such user.' }).success).toBe(
      true,
    );
    expect(answers[200]).toBeDefined();
    expect(ErrorBody.safeParse({ code: 0, error: 'x', msg: 'y' }).success).toBe(true);
  });

  it('an answer a declaration gives for a status itself is kept', () => {
    const own = z.object({ message: z.string() });
    const d = endpoint({
      method: 'GET',
      path: '/x/:id',
      access: 'apikey',
      tag: 't',
      params: z.object({ id: z.string() }),
      response: { 400: own },
    });
    const answers: Record<number, z.ZodType | undefined> = endpointResponses(d);
    expect(answers[400]).toBe(own);
    expect(answers[401]?.description).toBe('`api_key_missing`, `api_key_invalid`, `api_key_expired`');
  });
});
