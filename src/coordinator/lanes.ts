/**
 * How one tenant/org's coordinator orders its commands (shared by the Durable Object and the Deno coordinator):
 * commands run one at a time in arrival order; a command with a `joinKey` joins an identical one still waiting
 * its turn; cache generation counters (`generation.*`, tiny storage reads/writes) run in their own lane, so a long
 * command (a KPI recalculation) never delays a cached lookup or the acknowledgement of a write.
 */
import type { CommandEnvelope } from './commands';
import { SerialQueue } from './queue';

export class CommandLanes {
  private readonly main = new SerialQueue();
  private readonly generations = new SerialQueue();

  dispatch<T>(command: CommandEnvelope, task: () => Promise<T>): Promise<T> {
    if (command.type === 'generation.read' || command.type === 'generation.bump') return this.generations.run(task);
    return typeof command.joinKey === 'string' ? this.main.runJoined(command.joinKey, task) : this.main.run(task);
  }

  /** Commands queued or running in every lane. */
  get size(): number {
    return this.main.size + this.generations.size;
  }

  /** Resolves when everything queued so far has finished. */
  async drain(): Promise<void> {
    await Promise.all([this.main.run(async () => undefined), this.generations.run(async () => undefined)]);
  }
}
