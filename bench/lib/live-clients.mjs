// The live bench's clients, all in this one child process (forked by bench/lib/live.mjs), so that what they cost is
// measured apart from the load generator and the server (`process.cpuUsage()` of this process) and kept as small as a
// client can be: every client but the observers is a raw TCP socket that sends its GET once and then only counts, in
// the bytes it receives (never decoded, never parsed), the `event: change` lines (so that every client is checked to
// get every change) and any `event: end`. The few observers parse each change and note its latency (its arrival
// minus its `occurredOn`, the audit stamp taken before the commit: an upper bound of commit-to-client).
//
// Messages from the parent: {type: 'connect', url, tokens, count, observers} -> {type: 'connected'};
// {type: 'progress'} -> {type: 'progress', observed (latencies so far), changes and most (the fewest and the most
// changes a counting client got)};
// {type: 'take'} -> {type: 'taken', latencies, changes: {min, max, clients}, ended, closed} (and starts counting
// again); {type: 'close'}.
import { Buffer } from 'node:buffer';
import http from 'node:http';
import net from 'node:net';

const CHANGE = Buffer.from('event: change');
const END = Buffer.from('event: end');
const READY = 'event: ready';
const tally = { latencies: [], ended: 0, closed: 0 };
const counted = [];
const sockets = [];

/**
 * Occurrences of `needle` (no line break in it) in `chunk`, and the one that straddles the previous chunk's end
 * (`previous`), which cannot be when that chunk ended a line (as a frame does).
 */
function countIn(chunk, needle, previous) {
  let found = 0;
  for (let at = chunk.indexOf(needle); at >= 0; at = chunk.indexOf(needle, at + needle.length)) found += 1;
  if (previous !== undefined && previous[previous.length - 1] !== 10) {
    const joined = Buffer.concat([
      previous.subarray(Math.max(0, previous.length - needle.length + 1)),
      chunk.subarray(0, needle.length - 1),
    ]);
    if (joined.indexOf(needle) >= 0) found += 1;
  }
  return found;
}

/** A counting client: resolves when its stream is `ready`. */
function openCounter(url, token) {
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname);
    const entry = { changes: 0 };
    let head = '';
    let ready = false;
    let previous;
    socket.setNoDelay(true);
    socket.on('connect', () =>
      socket.write(
        `GET ${url.pathname}${url.search} HTTP/1.1\r\nHost: ${url.host}\r\nAccept: text/event-stream\r\nAuthorization: Bearer ${token}\r\n\r\n`,
      ),
    );
    socket.on('error', reject);
    socket.on('close', () => (tally.closed += 1));
    socket.on('data', (chunk) => {
      if (!ready) {
        head += chunk.toString('latin1');
        if (!head.startsWith('HTTP/1.1 200')) {
          if (head.includes('\r\n')) reject(new Error(`${url}: ${head.split('\r\n')[0]}`));
          return;
        }
        const at = head.indexOf(READY);
        if (at < 0) return;
        ready = true;
        entry.changes += countIn(Buffer.from(head.slice(at), 'latin1'), CHANGE);
        counted.push(entry);
        sockets.push(socket);
        resolve();
        return;
      }
      entry.changes += countIn(chunk, CHANGE, previous);
      if (chunk.indexOf(END) >= 0) tally.ended += 1;
      previous = chunk;
    });
  });
}

/** An observer: parses every change and notes its latency. */
function openObserver(url, token) {
  return new Promise((resolve, reject) => {
    const request = http.request(url, { headers: { accept: 'text/event-stream', authorization: `Bearer ${token}` }, agent: false });
    request.on('error', reject);
    request.on('response', (response) => {
      if (response.statusCode !== 200) {
        reject(new Error(`${url}: ${response.statusCode}`));
        response.resume();
        return;
      }
      response.setEncoding('utf8');
      let pending = '';
      response.on('data', (chunk) => {
        const arrived = Date.now();
        pending += chunk;
        let cut;
        while ((cut = pending.indexOf('\n\n')) >= 0) {
          const block = pending.slice(0, cut);
          pending = pending.slice(cut + 2);
          if (block.includes(READY)) resolve();
          else if (block.includes('event: end')) tally.ended += 1;
          else if (block.includes('event: change')) {
            const data = block.split('\n').find((line) => line.startsWith('data: '));
            tally.latencies.push(arrived - Date.parse(JSON.parse(data.slice(6)).occurredOn));
          }
        }
      });
      response.on('end', () => (tally.closed += 1));
      sockets.push(request);
    });
    request.end();
  });
}

/** `count` clients (the first `observers` of them observers), opened 50 at a time; token `index / perToken`. */
async function connect({ url, tokens, perToken, count, observers }) {
  const target = new URL(url);
  for (let start = 0; start < count; start += 50) {
    const batch = [];
    for (let index = start; index < Math.min(count, start + 50); index += 1) {
      const token = tokens[Math.floor(index / perToken)];
      batch.push(index < observers ? openObserver(target, token) : openCounter(target, token));
    }
    await Promise.all(batch);
  }
}

function take() {
  const changes = counted.map((entry) => entry.changes);
  const taken = {
    type: 'taken',
    latencies: tally.latencies.splice(0),
    changes: changes.length === 0 ? null : { min: Math.min(...changes), max: Math.max(...changes), clients: changes.length },
    ended: tally.ended,
    closed: tally.closed,
  };
  for (const entry of counted) entry.changes = 0;
  return taken;
}

process.on('message', (message) => {
  if (message.type === 'connect')
    connect(message).then(
      () => process.send({ type: 'connected' }),
      (error) => process.send({ type: 'failed', error: String(error.message ?? error) }),
    );
  else if (message.type === 'progress')
    process.send({
      type: 'progress',
      observed: tally.latencies.length,
      changes: counted.length === 0 ? null : Math.min(...counted.map((entry) => entry.changes)),
      most: counted.length === 0 ? null : Math.max(...counted.map((entry) => entry.changes)),
    });
  else if (message.type === 'take') process.send(take());
  else if (message.type === 'close') {
    for (const socket of sockets) socket.destroy();
    process.disconnect();
  }
});
