import { describe, expect, expectTypeOf, it } from 'vitest';
import type { EndpointDeclaration } from '../endpoint.ts';
import { API_KEY_SCOPES, type ApiKeyScope, CreateApiKeyBody } from './apikey.ts';

describe('CreateApiKeyBody', () => {
  it('names exactly the scopes an endpoint declaration can need', () => {
    expectTypeOf<ApiKeyScope>().toEqualTypeOf<NonNullable<EndpointDeclaration['scope']>>();
    expect(API_KEY_SCOPES).toEqual(['rental', 'messaging:send', 'messaging:read']);
  });

  it('takes a name, one scope or more, addresses or ranges, and an ISO expiry', () => {
    const body = {
      name: ' ci ',
      scopes: ['rental', 'messaging:read'],
      allowedIps: ['203.0.113.0/24', '2001:db8::1'],
      expiresAt: '2030-01-01T00:00:00Z',
    };
    expect(CreateApiKeyBody.parse(body)).toEqual({ ...body, name: 'ci' });
    expect(CreateApiKeyBody.parse({ name: 'x', scopes: ['rental'] })).toEqual({
      name: 'x',
      scopes: ['rental'],
    });
  });

  it.each([
    [{ name: '', scopes: ['rental'] }, 'Enter a name for the key.'],
    [{ name: 'x'.repeat(61), scopes: ['rental'] }, 'Key name must be at most 60 characters.'],
    [{ name: 'x', scopes: [] }, 'Choose at least one scope.'],
    [{ name: 'x', scopes: ['admin'] }, 'Scopes must be some of: rental, messaging:send, messaging:read.'],
    [
      { name: 'x', scopes: ['rental'], allowedIps: ['1.2.3.4', 'nope'] },
      '"nope" is not an IPv4 or IPv6 address or CIDR range.',
    ],
    [
      { name: 'x', scopes: ['rental'], allowedIps: Array.from({ length: 21 }, (_, i) => `10.0.0.${i}`) },
      'At most 20 allowed addresses.',
    ],
    [{ name: 'x', scopes: ['rental'], expiresAt: '2030-01-01' }, /ISO 8601 time with a zone/],
  ])('refuses %j', (body, message) => {
    const parsed = CreateApiKeyBody.safeParse(body);
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toMatch(message);
  });
});
