/**
 * Summarises a V8 CPU profile (`node --cpu-prof`, as `PROFILE=1` writes to bench/out/prof/): where the
 * process's time went, by package or source folder and by function, self and inclusive.
 *
 *   node --import tsx bench/profile-summary.ts bench/out/prof/<file>.cpuprofile [top=25] [filter]
 *
 * LAST=<seconds> keeps only the samples of the profile's last seconds (the measured run, not the setup
 * before it; the server stops a moment after the run). FROM=<seconds> drops the first seconds instead.
 *
 * `filter` (a substring of a function's url or name) keeps only the call trees under matching frames
 * in the inclusive table, to see what one path costs.
 */
import { readFileSync } from 'node:fs';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

const [file, topArg, filter] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts <file.cpuprofile> [top] [filter]');
const TOP = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Time per node: each sample's delta goes to the node that was on top.
const self = new Map<number, number>();
const LAST = Number(process.env.LAST ?? 0) * 1e6;
const FROM = Number(process.env.FROM ?? 0) * 1e6;
const from = LAST ? profile.endTime - LAST : profile.startTime + FROM;
let t = profile.startTime;
for (const [i, id] of profile.samples.entries()) {
  t += profile.timeDeltas[i] ?? 0;
  if (t < from) continue;
  self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
}
const totalMs = (profile.endTime - from) / 1000;

/** Where a frame's code lives: a package, a folder of ours, node's internals or V8's states. */
function area(n: Node): string {
  const { url, functionName } = n.callFrame;
  if (!url) return `(${functionName || 'anonymous'})`;
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const ours = url.match(/\/(apps\/[^/]+\/src\/(?:modules\/[^/]+|[^/]+)|packages\/[^/]+|tools\/[^/]+)/);
  return ours ? ours[1]! : url;
}
const label = (n: Node) =>
  `${n.callFrame.functionName || '(anonymous)'} ${n.callFrame.url.replace(/^.*\/(node_modules|apps|packages)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;

const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
const selfByArea = new Map<string, number>();
const selfByFn = new Map<string, number>();
const inclusive = new Map<string, number>();
for (const [id, ms] of self) {
  const n = byId.get(id)!;
  add(selfByArea, area(n), ms);
  add(selfByFn, label(n), ms);
  // Inclusive: each distinct function on the stack once.
  const seen = new Set<string>();
  let under = !filter;
  const stack: Node[] = [];
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) stack.push(byId.get(cur)!);
  for (const f of stack) {
    if (filter && (f.callFrame.url.includes(filter) || f.callFrame.functionName.includes(filter)))
      under = true;
  }
  if (!under) continue;
  for (const f of stack) {
    const key = label(f);
    if (seen.has(key)) continue;
    seen.add(key);
    add(inclusive, key, ms);
  }
}

const print = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, v] of [...m].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    console.log(`${v.toFixed(0).padStart(8)} ms ${((v / totalMs) * 100).toFixed(1).padStart(5)} %  ${k}`);
  }
};
const idle = [...self]
  .filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)')
  .reduce((s, [, v]) => s + v, 0);
console.log(
  `profile: ${totalMs.toFixed(0)} ms, busy ${(totalMs - idle).toFixed(0)} ms (${(((totalMs - idle) / totalMs) * 100).toFixed(1)} %)`,
);
print('self time by area', selfByArea);
print('self time by function', selfByFn);
print(filter ? `inclusive time under "${filter}"` : 'inclusive time', inclusive);
