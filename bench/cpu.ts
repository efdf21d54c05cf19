import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time a process has used (user + system, ms), from /proc (Linux; 100 ticks a second). Per
 * request it is the figure contention changes least: waiting for a core is not counted.
 */
export function cpuMs(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}

/**
 * CPU time (ms) of every PostgreSQL process on the machine, by pid: a difference of two readings
 * is what PostgreSQL spent between them (backends that ended in between are not counted).
 */
export function postgresCpuMs(): Map<number, number> {
  const out = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (!stat.includes('(postgres)')) continue;
      out.set(Number(name), cpuMs(Number(name)));
    } catch {
      // The process ended while the list was read.
    }
  }
  return out;
}

/** PostgreSQL's CPU between two `postgresCpuMs` readings (backends started in between count from 0). */
export function postgresCpuSince(before: Map<number, number>): number {
  let ms = 0;
  for (const [pid, now] of postgresCpuMs()) ms += now - (before.get(pid) ?? 0);
  return ms;
}
