/**
 * How one tenant/org's coordinator orders its commands (shared by the Durable Object and the Deno coordinator):
 * commands run one at a time in arrival order; a command with a `joinKey` joins an identical one still waiting
 * its turn; cache generation counters and idempotency keys (`generation.*`, `idempotency.*`: tiny storage reads and
 * writes) run in their own lane, so a long command (a KPI recalculation) never delays a cached lookup, the
 * acknowledgement of a write or the start of a request with an Idempotency-Key.
 */
import type { CommandEnvelope, CommandType } from './commands';
import { SerialQueue } from './queue';

/** The quick lane's commands: tiny reads and writes of the coordinator's own storage. */
const QUICK_COMMANDS: ReadonlySet<CommandType> = new Set<CommandType>([
  'generation.read',
  'generation.bump',
  'idempotency.begin',
  'idempotency.finish',
  'idempotency.release',
]);

export class CommandLanes {
  private readonly main = new SerialQueue();
  private readonly generations = new SerialQueue();

  dispatch<T>(command: CommandEnvelope, task: () => Promise<T>): Promise<T> {
    if (QUICK_COMMANDS.has(command.type)) return this.generations.run(task);
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
