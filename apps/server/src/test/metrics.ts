import { expect } from 'vitest';
import type { TestServer } from './harness.ts';

// GET /metrics read the way Prometheus reads it: the text exposition parsed into samples.

export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Parses the Prometheus text exposition format (version 0.0.4); throws on a line it cannot read. */
export function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) {
      labels[l[1]!] = l[2]!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

export class Scrape {
  constructor(
    readonly text: string,
    readonly samples: Sample[],
  ) {}
  /** Samples of a metric whose labels include these. */
  find(name: string, labels: Record<string, string> = {}): Sample[] {
    return this.samples.filter(
      (s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v),
    );
  }
  /** The value of the one sample with these labels; undefined when there is none. */
  value(name: string, labels: Record<string, string> = {}): number | undefined {
    const found = this.find(name, labels);
    if (found.length > 1)
      throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
    return found[0]?.value;
  }
}

export async function scrape(s: TestServer, token?: string): Promise<Scrape> {
  const res = await fetch(`${s.url}/metrics`, token ? { headers: { authorization: `Bearer ${token}` } } : {});
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  return new Scrape(text, parseExposition(text));
}
