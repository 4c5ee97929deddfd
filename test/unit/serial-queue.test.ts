import { describe, expect, it } from 'vitest';
import { SerialQueue } from '../../src/coordinator/queue';

/** A promise the test settles itself: tasks wait on it instead of on the clock. */
function defer(): { promise: Promise<void>; resolve: () => void; resolveNow: () => Promise<void> } {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return {
    promise,
    resolve,
    resolveNow: () => {
      resolve();
      return promise;
    },
  };
}

describe('SerialQueue.runJoined', () => {
  it('joins calls with the same key while the first is still waiting, and runs one at a time', async () => {
    const queue = new SerialQueue();
    const events: string[] = [];
    let runs = 0;
    const task = (name: string) => async () => {
      runs += 1;
      events.push(`start ${name}`);
      // Yield mid-task: a queue that did not serialize would interleave the next task here.
      await defer().resolveNow();
      events.push(`end ${name}`);
      return runs;
    };
    const blocker = queue.run(task('blocker'));
    const joined = [queue.runJoined('k', task('a')), queue.runJoined('k', task('b')), queue.runJoined('other', task('c'))];
    expect(await Promise.all([blocker, ...joined])).toEqual([1, 2, 2, 3]);
    expect(events).toEqual(['start blocker', 'end blocker', 'start a', 'end a', 'start c', 'end c']);
  });

  it('queues a new run for a call that arrives after the joined task started', async () => {
    const queue = new SerialQueue();
    const started = defer();
    const finish = defer();
    let runs = 0;
    const task = async () => {
      runs += 1;
      started.resolve();
      await finish.promise;
      return runs;
    };
    const first = queue.runJoined('k', task);
    await started.promise;
    const second = queue.runJoined('k', task);
    finish.resolve();
    expect(await Promise.all([first, second])).toEqual([1, 2]);
  });

  it('shares a failure with the joined calls and keeps the queue going', async () => {
    const queue = new SerialQueue();
    const failing = async () => {
      throw new Error('boom');
    };
    const results = await Promise.allSettled([queue.runJoined('k', failing), queue.runJoined('k', failing)]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect(await queue.runJoined('k', async () => 'next')).toBe('next');
  });
});
