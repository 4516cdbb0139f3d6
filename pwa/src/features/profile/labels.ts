import type { Role } from '../../lib/account';

/** Badge colours: admin red, super admin purple, farmer green, others grey. */
export function roleBadgeClass(role: Role): string {
  switch (role) {
    case 'admin':
      return 'badge red';
    case 'super_admin':
      return 'badge purple';
    case 'farmer':
      return 'badge green';
    default:
      return 'badge grey';
  }
}
