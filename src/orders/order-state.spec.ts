import { canTransition, OrderState } from './order-state';

describe('order state machine', () => {
  const all = Object.values(OrderState);

  it('keeps Processed, Cancelled and Declined final', () => {
    for (const end of [OrderState.Processed, OrderState.Cancelled, OrderState.Declined]) {
      for (const to of all) expect(canTransition(end, to)).toBe(false);
    }
  });

  it('captures (through Processing) and cancels only from PaymentAuthorized (or a Pending order the shopper never finished)', () => {
    expect(canTransition(OrderState.PaymentAuthorized, OrderState.Processing)).toBe(true);
    expect(canTransition(OrderState.Processing, OrderState.Processed)).toBe(true);
    expect(canTransition(OrderState.PaymentAuthorized, OrderState.Cancelled)).toBe(true);
    expect(canTransition(OrderState.Pending, OrderState.Cancelled)).toBe(true);
    expect(canTransition(OrderState.ProcessingFailed, OrderState.Processed)).toBe(false);
    expect(canTransition(OrderState.Processing, OrderState.Cancelled)).toBe(false);
  });

  it('lets a declined checkout be tried again, and nothing else', () => {
    expect(all.filter((to) => canTransition(OrderState.ProcessingFailed, to))).toEqual([OrderState.Processing]);
  });

  it('never moves to the state it is in', () => {
    for (const state of all) expect(canTransition(state, state)).toBe(false);
  });
});
