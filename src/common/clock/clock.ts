import { Injectable } from '@nestjs/common';

/**
 * The service's notion of "now". Deadlines (authorization expiry, rate offers, replay windows) read it
 * instead of `new Date()` so that tests can move time forward without waiting days.
 */
@Injectable()
export class Clock {
  private offsetMs = 0;

  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }

  /** Test seam: moves this process's clock forward (or back, with a negative value). */
  travel(ms: number): void {
    this.offsetMs += ms;
  }
}
