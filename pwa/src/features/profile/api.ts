import { api } from '../../lib/api';
import type { User } from '../../lib/account';

/** PATCH /me/update with only the fields that were filled in (docs/api.md). */
export async function updateProfile(fields: Record<string, string>, avatar: File | null): Promise<User> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value.trim()) form.append(`user[${name}]`, value);
  }
  if (avatar) form.append('user[avatar]', avatar);
  const response = await api<{ user: User }>('/me/update', { method: 'PATCH', form });
  return response.user;
}

export async function deleteAccount(): Promise<void> {
  await api('/me/delete', { method: 'DELETE' });
}
