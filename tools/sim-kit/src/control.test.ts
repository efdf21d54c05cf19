import { describe, expect, it } from 'vitest';
import { type ControlApi, handleControl } from './control.ts';

const api: ControlApi = {
  error: (message) => ({ problem: message }),
  routes: {
    'GET /sim/echo': (body) => ({ json: body }),
    'POST /sim/boom': () => {
      throw new Error('no SIM in slot 9');
    },
    'POST /sim/later': async (body) => ({ status: 202, json: { later: body.n } }),
  },
};

describe('handleControl', () => {
  it('dispatches on method and path, with {} for an empty body', async () => {
    expect(await handleControl(api, { method: 'GET', path: '/sim/echo', body: '' })).toEqual({ json: {} });
    expect(await handleControl(api, { method: 'POST', path: '/sim/later', body: '{"n":2}' })).toEqual({
      status: 202,
      json: { later: 2 },
    });
  });

  it('answers in the simulator error shape: 404 unknown route, 400 bad body or a throwing route', async () => {
    expect(await handleControl(api, { method: 'POST', path: '/sim/echo', body: '' })).toEqual({
      status: 404,
      json: { problem: 'unknown control route' },
    });
    expect(await handleControl(api, { method: 'GET', path: '/sim/echo', body: '[1]' })).toEqual({
      status: 400,
      json: { problem: 'body must be a JSON object' },
    });
    expect(await handleControl(api, { method: 'POST', path: '/sim/boom', body: '' })).toEqual({
      status: 400,
      json: { problem: 'no SIM in slot 9' },
    });
  });
});
