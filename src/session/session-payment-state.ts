import { EntityManager } from 'typeorm';
import { PaymentSession } from './session.entity';
import { SessionState } from './session-state';

/**
 * The shopper's side of a session's states (DESIGN.md section 4): CREATED → PROCESSING (payment
 * submitted) → REDIRECTED (3-D Secure or a redirect approval) → COMPLETED (an order exists) or FAILED;
 * a declined attempt goes back to CREATED so that the shopper can try again.
 */
const PAYMENT_TRANSITIONS: Readonly<Partial<Record<SessionState, readonly SessionState[]>>> = {
  [SessionState.Created]: [SessionState.Processing],
  [SessionState.Processing]: [SessionState.Redirected, SessionState.Completed, SessionState.Failed, SessionState.Created],
  [SessionState.Redirected]: [SessionState.Completed, SessionState.Failed, SessionState.Created],
};

/**
 * Moves a session from `from` to `to` in one conditional UPDATE (a CREATED one only while unexpired
 * and not held by a merchant's update): true when this call made the move, false when the session was
 * not in `from` any more (another tab, a double click, the merchant, or expiry came first).
 */
export async function moveSession(manager: EntityManager, id: string, from: SessionState, to: SessionState, now: Date): Promise<boolean> {
  if (!PAYMENT_TRANSITIONS[from]?.includes(to)) throw new Error(`Illegal session transition ${from} → ${to}`);
  const query = manager
    .createQueryBuilder()
    .update(PaymentSession)
    .set({ state: to })
    .where('id = :id AND state = :from', { id, from });
  if (from === SessionState.Created) {
    query.andWhere('expires_at > :now AND (update_lock_until IS NULL OR update_lock_until < :now)', { now });
  }
  return (await query.execute()).affected === 1;
}
