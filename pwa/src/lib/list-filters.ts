// A list's filters from the page's address: the server's first screen (web/first_screen)
// searches with a form (`?q=`) and links its chips (`?category=`, `?level=`, `?sort=`),
// so a search made before the app started stays when it does.

/** `empty` with what the address says, each value only if the list knows it. */
export function filtersFromUrl<F extends { q: string }>(
  params: URLSearchParams,
  empty: F,
  known: Partial<Record<Exclude<keyof F, 'q'>, readonly string[]>>,
): F {
  const out: Record<string, unknown> = { ...empty };
  out.q = (params.get('q') ?? '').trim().slice(0, 100);
  for (const [key, values] of Object.entries(known) as [string, readonly string[]][]) {
    const value = params.get(key);
    if (value !== null && values.includes(value)) out[key] = value;
  }
  return out as F;
}
