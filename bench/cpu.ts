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

/**
 * CPU time (ms) of a process by thread: `main` (the JavaScript thread), the others by name
 * (/proc/<pid>/task/<tid>/comm: V8's workers, libuv's pool), summed per name; a difference of two readings is where the process's CPU
 * went between them.
 */
export function threadCpuMs(pid: number | undefined): Map<string, number> {
  const out = new Map<string, number>();
  try {
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
        const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const name = tid === String(pid) ? 'main' : comm;
        const fields = stat.slice(stat.lastIndexOf(') ') + 2).split(' ');
        out.set(name, (out.get(name) ?? 0) + (Number(fields[11]) + Number(fields[12])) * 10);
      } catch {
        // The thread ended while the list was read.
      }
    }
  } catch {
    // The process ended.
  }
  return out;
}

/** `threadCpuMs` now minus an earlier reading, by thread name. */
export function threadCpuSince(pid: number | undefined, before: Map<string, number>): Map<string, number> {
  const out = new Map<string, number>();
  for (const [name, now] of threadCpuMs(pid)) out.set(name, now - (before.get(name) ?? 0));
  return out;
}

/** Resident memory of a process in MB (/proc/<pid>/status, VmRSS); NaN once it has ended. */
export function rssMb(pid: number | undefined): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? Number.NaN : Math.round(Number(kb) / 1024);
  } catch {
    return Number.NaN;
  }
}
