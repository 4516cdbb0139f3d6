export type Role = 'farmer' | 'user' | 'admin' | 'super_admin' | 'field_agent';
export type AccountStatus = 'active' | 'inactive' | 'pending';
export const ROLES: readonly Role[] = ['farmer', 'user', 'field_agent', 'admin', 'super_admin'];
export const STATUSES: readonly AccountStatus[] = ['active', 'inactive', 'pending'];
export const COUNTRIES = ['DRC', 'BDI', 'RWA', 'UGA', 'TZA', 'KEN'] as const;
export type Country = (typeof COUNTRIES)[number];

export interface User {
  id: number;
  first_name: string;
  last_name: string;
  full_name: string;
  /** `null` for an account made with a phone number only. */
  email: string | null;
  phone_number: string | null;
  country: Country | null;
  username: string | null;
  role: Role;
  status: AccountStatus;
  location: string | null;
  avatar_url: string | null;
  business_profile: { name: string } | null;
  created_at: string;
  updated_at: string;
  /** SMS about applications, orders and payments (docs/sms.md). */
  sms_updates: boolean;
}

export function displayName(user: Pick<User, 'full_name' | 'email' | 'phone_number'>): string {
  return user.full_name.trim() || user.email || user.phone_number || '';
}
