import { attemptsAllowed, DEFAULT_SCHEDULE, JITTER, nominalDelays, retryDelay, RetrySchedule } from './delivery-schedule';

const DAY = 24 * 3600_000;
const lowest = () => 0;
const highest = () => 0.999999;

/** Every delay of the schedule, with the random source given (null marks the end). */
const allDelays = (schedule: RetrySchedule, random: () => number) => {
  const delays: number[] = [];
  for (let failures = 1; ; failures++) {
    const delay = retryDelay(schedule, failures, random);
    if (delay === null) return delays;
    delays.push(delay);
  }
};
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

describe('delivery schedule', () => {
  it('retries the default schedule for at least 3 days even when every jitter is at its lowest', () => {
    expect(sum(allDelays(DEFAULT_SCHEDULE, lowest))).toBeGreaterThanOrEqual(3 * DAY);
    // … and not absurdly longer (within one capped delay of the target at the highest jitter).
    expect(sum(allDelays(DEFAULT_SCHEDULE, highest))).toBeLessThan((3 * DAY) / (1 - JITTER) * (1 + JITTER) + DEFAULT_SCHEDULE.maxDelayMs * 2);
  });

  it('makes the first retry within a minute, whatever the jitter', () => {
    expect(retryDelay(DEFAULT_SCHEDULE, 1, highest)).toBeLessThan(60_000);
    expect(retryDelay(DEFAULT_SCHEDULE, 1, lowest)).toBeGreaterThanOrEqual(24_000);
  });

  it('doubles from the first delay up to the cap', () => {
    expect(nominalDelays(DEFAULT_SCHEDULE).slice(0, 5)).toEqual([30_000, 60_000, 120_000, 240_000, 480_000]);
    expect(Math.max(...nominalDelays(DEFAULT_SCHEDULE))).toBe(DEFAULT_SCHEDULE.maxDelayMs);
    expect(nominalDelays({ firstDelayMs: 100, maxDelayMs: 300, retryForMs: 1000 })).toEqual([100, 200, 300, 300, 300, 300]);
  });

  it.each([
    [1, 30_000],
    [2, 60_000],
    [10, 15_360_000],
    [11, 21_600_000],
    [20, 21_600_000],
  ])('keeps the delay after failure %i within ±20%% of %i ms', (failures, nominal) => {
    for (const random of [lowest, () => 0.5, highest, Math.random]) {
      const delay = retryDelay(DEFAULT_SCHEDULE, failures, random)!;
      expect(delay).toBeGreaterThanOrEqual(nominal * (1 - JITTER));
      expect(delay).toBeLessThanOrEqual(nominal * (1 + JITTER));
    }
    expect(retryDelay(DEFAULT_SCHEDULE, failures, () => 0.5)).toBe(nominal);
  });

  it('gives up once the schedule is used up', () => {
    const allowed = attemptsAllowed(DEFAULT_SCHEDULE);
    expect(retryDelay(DEFAULT_SCHEDULE, allowed - 1)).not.toBeNull();
    expect(retryDelay(DEFAULT_SCHEDULE, allowed)).toBeNull();
    expect(allDelays(DEFAULT_SCHEDULE, Math.random)).toHaveLength(allowed - 1);
  });

  it('refuses nonsense schedules and failure counts', () => {
    expect(() => nominalDelays({ firstDelayMs: 0, maxDelayMs: 1, retryForMs: 1 })).toThrow();
    expect(() => nominalDelays({ firstDelayMs: 10, maxDelayMs: 5, retryForMs: 1 })).toThrow();
    expect(() => retryDelay(DEFAULT_SCHEDULE, 0)).toThrow();
  });
});
