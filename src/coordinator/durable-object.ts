/** One Durable Object per tenant/org: runs that org's coordinator commands strictly one at a time. */
import { DurableObject } from 'cloudflare:workers';
import type { CoordinatorCommand } from '../platform/types';
import { buildDurableObjectPlatform } from '../platform/cloudflare';
import { runCommand } from './commands';
import type { CoordinatorState } from './commands';
import { SerialQueue } from './queue';

export class TenantCoordinator extends DurableObject<Env> {
  private readonly queue = new SerialQueue();
  /** Cache generation counters (`generation.*`: tiny storage reads/writes) run in their own lane, so a long
   * command (a KPI recalculation) never delays a cached lookup or the acknowledgement of a write. */
  private readonly generationQueue = new SerialQueue();
  private readonly state: CoordinatorState = {
    get: async <T>(key: string) => this.ctx.storage.get<T>(key),
    put: async (key, value) => this.ctx.storage.put(key, value),
  };

  /** RPC entry: commands are queued so that D1 I/O of one never interleaves with another. */
  async handle(command: CoordinatorCommand): Promise<unknown> {
    const task = () => runCommand(buildDurableObjectPlatform(this.env, this.ctx), command, this.state);
    if (command.type.startsWith('generation.')) return this.generationQueue.run(task);
    // Commands with a joinKey coalesce with an identical one that is still waiting its turn.
    return typeof command.joinKey === 'string' ? this.queue.runJoined(command.joinKey, task) : this.queue.run(task);
  }
}
