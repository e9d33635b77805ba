/** Session states (DESIGN.md section 4). The last four are final. */
export enum SessionState {
  Created = 'CREATED',
  Processing = 'PROCESSING',
  Redirected = 'REDIRECTED',
  Completed = 'COMPLETED',
  Failed = 'FAILED',
  Cancelled = 'CANCELLED',
  Expired = 'EXPIRED',
}

/** Only a CREATED session may be updated or cancelled by the merchant. */
export const MERCHANT_MUTABLE_STATES: ReadonlySet<SessionState> = new Set([SessionState.Created]);
