// The API served by Deno (`npm run start:deno`'s server) on a free port with fresh state: for the scenarios measured
// without wrangler dev's proxy in front (bench --live --deno).
import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { buildDenoArgs, buildDenoEnv, resolveDenoExecutable } from '../../scripts/deno-bin.mjs';
import { findFreePort, waitFor } from './servers.mjs';

export async function startDenoServer(state, vars) {
  const directory = path.join(state, 'deno');
  mkdirSync(directory, { recursive: true });
  const port = await findFreePort();
  const child = spawn(resolveDenoExecutable(), buildDenoArgs(directory), {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: buildDenoEnv({ ...vars, PORT: String(port), HOST: '127.0.0.1', DENO_DATA_DIR: directory, CRON_INTERVAL_MINUTES: '0' }),
  });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/health`);
  return {
    url,
    /** The server's process id (the CPU it uses is the server's). */
    pid: () => child.pid,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}
