// node bench/pool-lists.mjs <scale.json> [<scale.json> ...]: the per-list first-page scenarios of several `--scale`
// runs (their `lists`) pooled: for each scenario, the large tenant/org's answers over all runs' alternating rounds
// against the small one's (every round lasts the same seconds on both sides, so answers compare as req/s), and the
// worst pooled loss of the orders an index serves. One run's 3 rounds of 3 s move a scenario's loss by 15 points or
// more between two quiet runs of the same build; pooling runs narrows that without changing what is measured.
import { readFileSync } from 'node:fs';

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error('usage: node bench/pool-lists.mjs <scale.json> [<scale.json> ...]');
  process.exit(2);
}
const runs = files.map((file) => JSON.parse(readFileSync(file, 'utf8')).lists);
const pooled = [];
for (const [list, scenarios] of Object.entries(runs[0])) {
  for (const [scenario, first] of Object.entries(scenarios)) {
    const measured = runs.map((run) => run[list]?.[scenario]).filter((entry) => entry !== undefined);
    if (measured.length !== runs.length) continue;
    const large = measured.reduce((sum, entry) => sum + entry.large.answered, 0);
    const small = measured.reduce((sum, entry) => sum + entry.small.answered, 0);
    const losses = measured.map((entry) => entry.loss);
    pooled.push({ list, scenario, served: first.served, loss: small > 0 ? 1 - large / small : null, losses });
  }
}
const percent = (value) => (value === null ? 'n/a' : `${(value * 100).toFixed(1)}%`);
console.log(`| list | scenario | served | loss per run | pooled loss (${runs.length} runs) |`);
console.log('|---|---|---|---|---:|');
for (const row of pooled) {
  console.log(`| ${row.list} | ${row.scenario} | ${row.served} | ${row.losses.map(percent).join(', ')} | ${percent(row.loss)} |`);
}
const indexed = pooled.filter((row) => row.served !== 'sorted' && row.loss !== null);
const worst = indexed.reduce((a, b) => (b.loss > a.loss ? b : a), indexed[0]);
console.log(
  `\nindex- or key-served scenarios: ${indexed.length}; worst pooled loss ${percent(worst.loss)} (${worst.list}: ${worst.scenario})`,
);
console.log(`over 15%: ${indexed.filter((row) => row.loss > 0.15).length}`);
