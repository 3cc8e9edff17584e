// Prints the functions with the most self time in a V8 .cpuprofile (written with --cpu-prof).
// Usage: node bench/profile-summary.mjs file.cpuprofile [top=25]
import { readFileSync } from 'node:fs';

const [file, top = '25'] = process.argv.slice(2);
const profile = JSON.parse(readFileSync(file, 'utf8'));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const selfMs = new Map();
const intervals = profile.timeDeltas;
profile.samples.forEach((id, index) => {
  const node = byId.get(id);
  const { functionName, url, lineNumber } = node.callFrame;
  const where = `${functionName || '(anonymous)'} ${url.replace(/^.*node_modules\//, '~/').replace(/^.*\/dist\//, 'dist/')}:${lineNumber + 1}`;
  selfMs.set(where, (selfMs.get(where) ?? 0) + (intervals[index] ?? 0) / 1000);
});
const total = [...selfMs.values()].reduce((sum, ms) => sum + ms, 0);
for (const [where, ms] of [...selfMs.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(top))) {
  process.stdout.write(
    `${((100 * ms) / total).toFixed(1).padStart(5)}%  ${ms.toFixed(0).padStart(6)} ms  ${where}\n`,
  );
}
