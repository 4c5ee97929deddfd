/**
 * When the live hub's pump runs (src/live/hub.ts): never on the path of the writer that told it (a timer, so that the
 * writer's answer goes first), never sooner than the spacing after the last fan-out began (spaceFanOuts: it grows with
 * the live connections), and not while the last connection of the last fan-out still holds its frame (the runtime has
 * not yet written the fan-out's frames), up to LIVE_LIMITS.fanOutSpacingMaxMs. The commits meanwhile wait and go out
 * together: one read of the feed, one frame per connection.
 */
import { LIVE_LIMITS, spaceFanOuts } from './limits';
import type { LiveTransport } from './transport';

export class FanOutPacer {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private startedAt = Number.NEGATIVE_INFINITY;
  private last: LiveTransport | undefined;

  /** `run`: the pump; `streams`: how many connections are live. */
  constructor(
    private readonly now: () => number,
    private readonly streams: () => number,
    private readonly run: () => void,
  ) {}

  /** Runs the pump once it may, unless that is already planned. */
  schedule(): void {
    if (this.timer === undefined) this.arm(Math.max(0, this.startedAt + spaceFanOuts(this.streams()) - this.now()));
  }

  private arm(wait: number): void {
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.isHeld()) this.arm(LIVE_LIMITS.fanOutDrainCheckMs);
      else this.run();
    }, wait);
  }

  /** A fan-out begins (its read of the feed). */
  begin(): void {
    this.startedAt = this.now();
    this.last = undefined;
  }

  /** The fan-out sent a frame to `transport` (the last one it sends to is watched). */
  sent(transport: LiveTransport): void {
    this.last = transport;
  }

  /** Whether the runtime still holds the last fan-out's last frame (for no longer than the most). */
  private isHeld(): boolean {
    const last = this.last;
    if (last === undefined || last.closed || last.pending() === 0) return false;
    return this.now() - this.startedAt < LIVE_LIMITS.fanOutSpacingMaxMs;
  }
}
