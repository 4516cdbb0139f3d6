import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useAdminList } from './admin-list';

interface Filters {
  q: string;
  status: string;
}

describe('an admin list', () => {
  it('asks the server once typing pauses, goes back to page one on another filter, and keeps its rows when a refresh fails', async () => {
    const asked: [Filters, number][] = [];
    let fail = false;
    const read = vi.fn(async (filters: Filters, page: number) => {
      asked.push([filters, page]);
      if (fail) throw new Error('offline');
      return `${filters.q}|${filters.status}|${page}`;
    });
    const { result } = renderHook(() => useAdminList<Filters, string>({ q: '', status: '' }, read));
    await waitFor(() => expect(result.current.result).toBe('||1'));

    act(() => result.current.setPage(3));
    await waitFor(() => expect(result.current.result).toBe('||3'));

    // Typed letter by letter: one question, with the whole word, once typing pauses.
    const before = asked.length;
    for (const typed of ['b', 'be', 'bea', 'beans']) act(() => result.current.setFilter('q', typed));
    await waitFor(() => expect(result.current.result).toBe('beans||1'));
    expect(asked.slice(before)).toEqual([[{ q: 'beans', status: '' }, 1]]);

    act(() => result.current.setPage(2));
    await waitFor(() => expect(result.current.result).toBe('beans||2'));
    act(() => result.current.setFilter('status', 'pending'));
    await waitFor(() => expect(result.current.result).toBe('beans|pending|1'));

    fail = true;
    await act(() => result.current.reload());
    expect(result.current.error).toBeInstanceOf(Error);
    expect(result.current.result).toBe('beans|pending|1');
  });
});
