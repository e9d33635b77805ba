/**
 * When a failed notification is tried again: exponential backoff (×2 from `firstDelayMs`, capped at
 * `maxDelayMs`) with ±JITTER random spread, so that many events failing at once do not come back at
 * once. Retries go on until even the shortest possible delays add up to `retryForMs`: with jitter the
 * schedule lasts at least that long, never less. Pure: the random source is a parameter.
 */
export interface RetrySchedule {
  firstDelayMs: number;
  maxDelayMs: number;
  retryForMs: number;
}

/** Each delay is its nominal value × a random factor in [1 − JITTER, 1 + JITTER). */
export const JITTER = 0.2;

/** The contract's defaults (DESIGN.md section 7): first retry within a minute, at least 3 days in all. */
export const DEFAULT_SCHEDULE: RetrySchedule = { firstDelayMs: 30_000, maxDelayMs: 6 * 3600_000, retryForMs: 3 * 24 * 3600_000 };

/** The nominal delays before retry 1, 2, … n (without jitter). */
export function nominalDelays(schedule: RetrySchedule): number[] {
  if (!(schedule.firstDelayMs > 0) || schedule.maxDelayMs < schedule.firstDelayMs || !(schedule.retryForMs > 0)) {
    throw new Error('A retry schedule needs 0 < firstDelayMs <= maxDelayMs and retryForMs > 0');
  }
  const delays: number[] = [];
  let guaranteed = 0;
  for (let delay = schedule.firstDelayMs; guaranteed < schedule.retryForMs; delay = Math.min(delay * 2, schedule.maxDelayMs)) {
    delays.push(delay);
    guaranteed += delay * (1 - JITTER);
  }
  return delays;
}

/** How many attempts an event gets in all: the first one and one per delay. */
export function attemptsAllowed(schedule: RetrySchedule): number {
  return nominalDelays(schedule).length + 1;
}

/**
 * The wait before the next attempt after `failures` failed attempts in a row (1 after the first
 * failure), or null when the schedule is used up and the event is given up.
 */
export function retryDelay(schedule: RetrySchedule, failures: number, random: () => number = Math.random): number | null {
  const delays = nominalDelays(schedule);
  if (!Number.isInteger(failures) || failures < 1) throw new Error('failures counts from 1');
  if (failures > delays.length) return null;
  return Math.round(delays[failures - 1] * (1 - JITTER + 2 * JITTER * random()));
}
