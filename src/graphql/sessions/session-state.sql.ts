import { SessionState } from '../../session/session-state';

/**
 * SQL for the state the Session interface shows: a CREATED session past its expiry is EXPIRED even
 * before the expiry job (or a read through SessionService) has written it. `now` is the placeholder of
 * the current time: `?`, or a query builder's `:now`.
 */
export const effectiveSessionStateSql = (alias: string, now = '?') =>
  `CASE WHEN ${alias}.state = '${SessionState.Created}' AND ${alias}.expires_at <= ${now} THEN '${SessionState.Expired}' ELSE ${alias}.state END`;
