#!/usr/bin/env node
// Runs the `sh` examples of the README, then those of the docs' walk-throughs (EXAMPLE_FILES), in order, as a reader
// pastes them into one shell, against a started server:
//   npm start   (then, in another terminal)   npm run readme:check   [-- --base http://127.0.0.1:8787]
// Every block that calls the API (a `curl` line) runs, except blocks that start or build something (npm start,
// npm test, npm run start:deno, bench, deploy, ...). They run in one bash with `set -euo pipefail` (a variable used
// before a line sets it fails), `curl` records each answer's status, and a block fails when an answer is a 5xx or a
// 4xx whose number the block does not mention (the README says which refusals an example shows). The webhook
// example's receiver (npm run webhook:receiver) is started here. Runs on the demo data, as often as wanted: every
// example can be pasted twice. test/tooling/readme-examples.test.ts runs it twice in a row on a fresh `npm start`.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
export const README_BASE = 'http://127.0.0.1:8787';
export const README_RECEIVER = 'http://127.0.0.1:8790';
/** The files whose examples run, in this order (the docs' blocks use the variables the README's set). */
export const EXAMPLE_FILES = ['README.md', 'docs/api-reference.md', 'docs/odata.md'];
const SKIP =
  /\b(npm (install|start|test|ci)\b|npm run (start:deno|test|bench|deploy|db:|types|browser|assets|format|lint|typecheck)|node bench|wrangler |bash )/;

/** A file's runnable `sh` blocks: { file, line, text }. */
export function readExampleBlocks(file = 'README.md', text = readFileSync(`${root}${file}`, 'utf8')) {
  const blocks = [];
  const lines = text.split('\n');
  for (let index = 0; index < lines.length; index += 1) {
    if (lines[index].trim() !== '```sh') continue;
    const start = index + 1;
    let end = start;
    while (end < lines.length && lines[end].trim() !== '```') end += 1;
    const text = lines.slice(start, end).join('\n');
    if (/\bcurl\b/.test(text) && !text.split('\n').some((line) => SKIP.test(line.replace(/#.*$/, ''))))
      blocks.push({ file, line: start + 1, text });
    index = end;
  }
  return blocks;
}

/** The bash script: the blocks in order, each announced on stderr, with a curl that reports every status there. */
export function buildScript(blocks, base, receiver) {
  const parts = [
    'set -euo pipefail',
    // -w to stderr: captures of stdout ($(curl ...)) stay what the README shows.
    `curl() { command curl -sS -w '%{stderr}__status %{http_code}\\n' "$@"; }`,
  ];
  for (const [index, block] of blocks.entries()) {
    parts.push(`echo "__block ${index}" >&2`);
    parts.push(block.text.replaceAll(README_BASE, base).replaceAll(README_RECEIVER, receiver));
  }
  parts.push('echo "__done" >&2');
  return parts.join('\n');
}

/** Checks the answers of each block: problems as text (empty: every example answered as the README says). */
export function checkStatuses(blocks, stderr) {
  const problems = [];
  let current = -1;
  let done = false;
  for (const line of stderr.split('\n')) {
    const block = /^__block (\d+)$/.exec(line);
    if (block) current = Number(block[1]);
    if (line === '__done') done = true;
    const status = /^__status (\d+)$/.exec(line);
    if (!status || current < 0) continue;
    const code = Number(status[1]);
    const { text, file, line: at } = blocks[current];
    if (code >= 500 || code === 0) problems.push(`${file}:${at}: an answer was ${code}`);
    else if (code >= 400 && !text.includes(String(code)))
      problems.push(`${file}:${at}: an answer was ${code}, which the block does not mention`);
  }
  const last = blocks[Math.max(current, 0)];
  if (!done) problems.push(`${last?.file}:${last?.line}: the block stopped (a command failed or a variable was unset)`);
  return problems;
}

/** Every runnable block of EXAMPLE_FILES, in order. */
export function readAllExampleBlocks() {
  return EXAMPLE_FILES.flatMap((file) => readExampleBlocks(file));
}

/** Runs the examples against `base` (the webhook receiver on `receiverPort`); resolves with the problems found. */
export async function runReadmeExamples({ base = README_BASE, receiverPort = 8790, env = {} } = {}) {
  const blocks = readAllExampleBlocks();
  const receiverUrl = `http://127.0.0.1:${receiverPort}`;
  rmSync(`${root}.webhook-secrets`, { force: true });
  const receiver = spawn(process.execPath, [`${root}scripts/webhook-receiver.mjs`], {
    cwd: root,
    env: { ...process.env, ...env, WEBHOOK_RECEIVER_PORT: String(receiverPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const receiverOutput = [];
  receiver.stdout.on('data', (chunk) => receiverOutput.push(chunk.toString()));
  receiver.stderr.on('data', (chunk) => receiverOutput.push(chunk.toString()));
  await new Promise((resolve) => setTimeout(resolve, 500));
  try {
    const result = spawnSync('bash', ['-c', buildScript(blocks, base, receiverUrl)], {
      cwd: root,
      encoding: 'utf8',
      env: { ...process.env, ...env },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 300_000,
    });
    // A delivery the examples caused may still be on its way (sent off the request path).
    for (let waited = 0; waited < 10_000 && !receiverOutput.join('').includes('verified:'); waited += 200)
      await new Promise((resolve) => setTimeout(resolve, 200));
    const problems = checkStatuses(blocks, result.stderr ?? '');
    if (result.status !== 0 && problems.length === 0) problems.push(`bash exited ${result.status}`);
    const errors = (result.stderr ?? '').split('\n').filter((line) => line && !line.startsWith('__'));
    return { problems, errors, stdout: result.stdout ?? '', receiver: receiverOutput.join('') };
  } finally {
    receiver.kill('SIGTERM');
    rmSync(`${root}.webhook-secrets`, { force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf('--base');
  const { problems, errors, receiver, stdout } = await runReadmeExamples({ base: at > 0 ? process.argv[at + 1] : README_BASE });
  if (problems.length > 0) {
    console.error([...problems, '', 'stderr:', ...errors].join('\n'));
    process.exit(1);
  }
  console.log(`Every example of ${EXAMPLE_FILES.join(', ')} answered as documented (${readAllExampleBlocks().length} blocks).`);
  if (receiver.includes('verified:')) console.log('The webhook example was delivered and verified.');
  if (process.argv.includes('--show')) console.log(`${stdout}\n--- receiver\n${receiver}`);
}
