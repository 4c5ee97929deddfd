// Whether a local port is free, checked before a start script builds, migrates or seeds anything.
import { createServer } from 'node:net';

/** Exits with one line when something listens on host:port (a listener of our own opens and closes it). */
export async function exitUnlessPortFree(host, port, start = 'npm start') {
  const error = await new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', resolve);
    probe.listen(port, host, () => probe.close(() => resolve(undefined)));
  });
  if (!error) return;
  console.error(
    error.code === 'EADDRINUSE'
      ? `Port ${port} on ${host} is in use (another ${start}?). Stop that server, or start on another port: PORT=${port + 10} ${start}`
      : `Cannot listen on ${host}:${port}: ${error.message}`,
  );
  process.exit(1);
}
