// The admin API (docs/api.md): applications to review and people to manage.
// Admin screens work online; what they show comes from the server each time.
import { api } from '../../lib/api';
import type { AccountStatus, Role, User } from '../../lib/account';
import type { ApplicationStatus } from '../../lib/entities/applications';
import type { Order, PartStatus, PaymentMethod } from '../../lib/entities/orders';
import type { PaymentStatus } from '../../lib/payments';
import type { PersonName, SurveyRecord } from '../../lib/sync/records';

export type { PersonName };

/** An application as the server sends it to admins: the same record as its owner's. */
export type AdminApplication = SurveyRecord;

export type StatusCounts = Record<'total' | 'pending' | 'approved' | 'rejected' | 're-submitted', number>;

export interface ApplicationPage {
  data: AdminApplication[];
  total: number;
  page: number;
  per_page: number;
  stats: StatusCounts;
}

export type Period = 'all' | 'today' | 'week' | 'month';

export interface ApplicationFilters {
  q: string;
  status: '' | Exclude<ApplicationStatus, 'draft'>;
  period: Period;
}

/** The start of a period in the admin's own time zone, as the server takes it. */
export function periodStart(period: Period, now = new Date()): string | undefined {
  if (period === 'all') return undefined;
  const start = new Date(now);
  if (period === 'today') start.setHours(0, 0, 0, 0);
  else start.setDate(start.getDate() - (period === 'week' ? 7 : 30));
  return start.toISOString();
}

export function applicationQuery(filters: ApplicationFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(extra);
  if (filters.q.trim()) params.set('q', filters.q.trim());
  if (filters.status) params.set('status', filters.status);
  const from = periodStart(filters.period);
  if (from) params.set('from', from);
  return params.toString();
}

/** Only pending and re-submitted applications can be decided. */
export const reviewable = (a: AdminApplication) => a.status === 'pending' || a.status === 're-submitted';

export const fetchApplications = (filters: ApplicationFilters, page: number) =>
  api<ApplicationPage>(`/admin/surveys?${applicationQuery(filters, { page: String(page) })}`);

export type Decision = 'approved' | 'rejected';

export const decide = (id: number, status: Decision, comment: string, notify: boolean) =>
  api<{ data: AdminApplication }>(`/admin/surveys/${id}`, {
    method: 'PATCH',
    json: { farmer_survey_form: { status, admin_comment: comment, notify } },
  });

export interface BulkResult {
  id: number;
  success: boolean;
  code?: string;
}

export const decideMany = (ids: number[], status: Decision, comment: string, notify: boolean) =>
  api<{ results: BulkResult[] }>('/admin/surveys/bulk', {
    method: 'POST',
    json: { ids, status, admin_comment: comment, notify },
  });

export const createForUser = (userId: number, answers: Record<string, unknown>) =>
  api<{ data: AdminApplication }>('/admin/surveys', {
    method: 'POST',
    json: { farmer_survey_form: { user_id: userId, ...answers } },
  });

/** Someone an application can be filled for (also the field agent's saved list). */

export interface UserFilters {
  q: string;
  role: '' | Role;
  status: '' | AccountStatus;
  country: string;
}

export function userQuery(filters: UserFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(extra);
  if (filters.q.trim()) params.set('q', filters.q.trim());
  for (const key of ['role', 'status', 'country'] as const) if (filters[key]) params.set(key, filters[key]);
  return params.toString();
}

export const fetchUsers = (filters: UserFilters) => api<User[]>(`/admin/users?${userQuery(filters)}`);

export interface UserStats {
  total: number;
  by_role: Record<Role, number>;
  by_status: Record<AccountStatus, number>;
}

export const fetchUserStats = () => api<UserStats>('/admin/users/stats');

/** A change of role or status, as the server recorded it. */
export type UserChange = { at: string; by: { id: number; name: string } } & (
  { field: 'role'; from: Role; to: Role } | { field: 'status'; from: AccountStatus; to: AccountStatus }
);

export interface UserDetails {
  data: User;
  changes: UserChange[];
  can_change: { role: boolean; status: boolean };
}

export const fetchUserDetails = (id: number) => api<UserDetails>(`/admin/users/${id}`);

export const changeUser = (id: number, changes: { role?: Role; status?: AccountStatus }) =>
  api<UserDetails>(`/admin/users/${id}`, { method: 'PATCH', json: { user: changes } });

export interface OrderFilters {
  q: string;
  status: '' | PartStatus;
  payment_method: '' | PaymentMethod;
  payment: '' | 'unpaid' | PaymentStatus;
  period: Period;
}

export type OrderCounts = Record<'total' | PartStatus, number>;

export interface OrderPage {
  data: Order[];
  total: number;
  page: number;
  per_page: number;
  stats: OrderCounts;
}

export function orderQuery(filters: OrderFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams(extra);
  if (filters.q.trim()) params.set('q', filters.q.trim());
  if (filters.status) params.set('status', filters.status);
  if (filters.payment_method) params.set('payment_method', filters.payment_method);
  if (filters.payment) params.set('payment', filters.payment);
  const from = periodStart(filters.period);
  if (from) params.set('from', from);
  return params.toString();
}

export const fetchOrders = (filters: OrderFilters, page: number) =>
  api<OrderPage>(`/admin/orders?${orderQuery(filters, { page: String(page) })}`);
