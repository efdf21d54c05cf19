import { describe, expect, it } from 'vitest';
import { isMain, parseOptions } from './cli.ts';

const SPEC = { port: 'number', host: 'string', sim: 'strings', quiet: 'boolean' } as const;

describe('parseOptions', () => {
  it('converts numbers, repeats strings, reads flags and --help', () => {
    const v = parseOptions(['--port', '8080', '--sim', 'a', '--sim', 'b', '--quiet', '-h'], SPEC);
    expect(v).toEqual({ port: 8080, sim: ['a', 'b'], quiet: true, help: true });
    expect(parseOptions([], SPEC)).toEqual({});
  });

  it('names the option whose number is not one, and refuses unknown options', () => {
    expect(() => parseOptions(['--port', 'x'], SPEC)).toThrow('--port must be a number');
    expect(() => parseOptions(['--port=-1'], SPEC, { nonNegative: true })).toThrow(
      '--port must be a non-negative number',
    );
    expect(parseOptions(['--port=-1'], SPEC).port).toBe(-1);
    expect(() => parseOptions(['--nope'], SPEC)).toThrow(/nope/);
  });
});

describe('isMain', () => {
  it('is false for a module node was not started with', () => {
    expect(isMain(import.meta.url)).toBe(false);
    expect(isMain('file:///no/such/file.ts')).toBe(false);
  });
});
