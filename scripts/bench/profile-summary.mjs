// Summary of a V8 .cpuprofile (from BENCH_CPU_PROF): self time by function and by package, and
// total (inclusive) time of the functions whose name matches an optional filter.
// node scripts/bench/profile-summary.mjs <file.cpuprofile> [top=25] [inclusive-filter-regexp]
import { readFileSync } from 'node:fs';

const [file, topArg, filter] = process.argv.slice(2);
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

// Sample intervals: timeDeltas[i] belongs to samples[i].
const selfUs = new Map();
let totalUs = 0;
profile.samples.forEach((id, i) => {
  const dt = profile.timeDeltas[i] ?? 0;
  selfUs.set(id, (selfUs.get(id) ?? 0) + dt);
  totalUs += dt;
});

const where = (cf) => {
  const url = cf.url.replace(/^file:\/\//, '');
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (pkg) return pkg;
  const dist = /dist\/(.+?)\/[^/]+\.js$/.exec(url)?.[1];
  if (dist) return dist;
  return url.startsWith('node:') ? 'node:' + url.slice(5).split('/')[0] : url || `(${cf.functionName || 'program'})`;
};
const label = (cf) => `${cf.functionName || '(anonymous)'} ${cf.url.replace(/^.*\/(node_modules|dist)\//, '$1/')}:${cf.lineNumber + 1}`;

const byFunction = new Map();
const byPackage = new Map();
for (const [id, us] of selfUs) {
  const cf = nodes.get(id).callFrame;
  byFunction.set(label(cf), (byFunction.get(label(cf)) ?? 0) + us);
  byPackage.set(where(cf), (byPackage.get(where(cf)) ?? 0) + us);
}
const pct = (us) => `${((100 * us) / totalUs).toFixed(1).padStart(5)}%`;
const print = (title, map) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`${pct(us)}  ${(us / 1000).toFixed(0).padStart(7)} ms  ${k}`);
};
console.log(`${file}: ${(totalUs / 1e6).toFixed(1)} s sampled`);
print('self time by package / folder', byPackage);
print('self time by function', byFunction);

if (filter) {
  // Inclusive time: a sample counts once for every distinct matching frame on its stack.
  const re = new RegExp(filter);
  const inclusive = new Map();
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const seen = new Set();
    for (let n = id; n !== undefined; n = parent.get(n)) {
      const l = label(nodes.get(n).callFrame);
      if (re.test(l) && !seen.has(l)) {
        seen.add(l);
        inclusive.set(l, (inclusive.get(l) ?? 0) + dt);
      }
    }
  });
  print(`inclusive time of frames matching /${filter}/`, inclusive);
}
