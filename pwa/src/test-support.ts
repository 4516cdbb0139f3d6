// Helpers for unit tests: a scripted fetch and a sample user.
import { vi } from 'vitest';
import type { User } from './lib/account';

export const sampleUser: User = {
  id: 7,
  first_name: 'Amani',
  last_name: 'Bahati',
  full_name: 'Amani Bahati',
  email: 'amani@example.com',
  phone_number: '+243991234567',
  country: 'DRC',
  username: null,
  role: 'farmer',
  status: 'active',
  location: null,
  avatar_url: null,
  business_profile: null,
  created_at: '2026-01-02T03:04:05Z',
  updated_at: '2026-01-02T03:04:05Z',
  sms_updates: true,
};

export type Reply = { status: number; body: unknown } | 'offline';
export type Calls = { path: string; method: string; authorization: string | null }[];

/** Answers `fetch` from a table of "METHOD /path" → reply, and records the calls. */
export function scriptFetch(table: Record<string, Reply>): Calls {
  const calls: Calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      const path = url.replace('/api/v1', '');
      const headers = new Headers(init.headers);
      calls.push({ path, method, authorization: headers.get('Authorization') });
      const reply = table[`${method} ${path}`];
      if (!reply || reply === 'offline') throw new TypeError('Failed to fetch');
      return new Response(JSON.stringify(reply.body), {
        status: reply.status,
        headers: { 'Content-Type': 'application/json' },
      });
    }),
  );
  return calls;
}
