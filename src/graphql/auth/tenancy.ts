import { Principal } from '../../auth/principal';
import { Role } from '../../auth/user.entity';
import { DomainError } from '../../common/errors/domain-error';
import { ErrorCode } from '../../common/errors/error-codes';

/** Dashboards that span merchants are for admins only (DESIGN.md section 3). */
export function requireAdmin(principal: Principal): void {
  if (principal.role !== Role.Admin) throw new DomainError(ErrorCode.NotAuthorized);
}

/**
 * The merchant a read is limited to: the caller's own for merchant and readonly users (a filter naming
 * another merchant then matches nothing, as if it did not exist), the filter's (or none) for admins.
 */
export function merchantScope(principal: Principal, requested?: string | null): { merchantId: string | null; empty: boolean } {
  if (principal.merchantId === null) return { merchantId: requested ?? null, empty: false };
  return { merchantId: principal.merchantId, empty: requested != null && requested !== principal.merchantId };
}
