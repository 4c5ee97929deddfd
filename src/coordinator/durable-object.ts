/** One Durable Object per tenant/org: runs that org's coordinator commands strictly one at a time. */
import { DurableObject } from 'cloudflare:workers';
import type { CoordinatorCommand } from '../platform/types';
import { buildDurableObjectPlatform } from '../platform/cloudflare';
import { runCommand } from './commands';
import type { CoordinatorState } from './commands';
import { CommandLanes } from './lanes';

export class TenantCoordinator extends DurableObject<Env> {
  private readonly lanes = new CommandLanes();
  private readonly state: CoordinatorState = {
    get: async <T>(key: string) => this.ctx.storage.get<T>(key),
    put: async (key, value) => this.ctx.storage.put(key, value),
    delete: async (key) => {
      await this.ctx.storage.delete(key);
    },
    list: async <T>(prefix: string, end: string, limit: number) => this.ctx.storage.list<T>({ prefix, end, limit }),
  };

  /** RPC entry: commands are queued so that D1 I/O of one never interleaves with another. */
  async handle(command: CoordinatorCommand): Promise<unknown> {
    return this.lanes.dispatch(command, () => runCommand(buildDurableObjectPlatform(this.env, this.ctx), command, this.state));
  }
}
