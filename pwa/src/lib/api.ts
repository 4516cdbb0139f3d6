// The one API client: bearer token, JSON or multipart bodies, and the
// server's error shape turned into ApiError. A 401 drops the stored token
// (docs/product.md, Statuses), except on the sign-in and sign-up calls.

export const TOKEN_KEY = 'token';
const UNAUTHORIZED_EVENT = 'mavuno:unauthorized';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors?: Record<string, string[]>,
    readonly errorCodes?: Record<string, string[]>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function getToken(): string | null {
  try {
    return localStorage.getItem(TOKEN_KEY);
  } catch {
    return null;
  }
}

export function setToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(TOKEN_KEY, token);
    else localStorage.removeItem(TOKEN_KEY);
  } catch {
    // Storage can be unavailable (private mode); the session then lasts the page.
  }
}

/** Called when the server says the session is no longer valid. */
export function onUnauthorized(listener: () => void): () => void {
  window.addEventListener(UNAUTHORIZED_EVENT, listener);
  return () => window.removeEventListener(UNAUTHORIZED_EVENT, listener);
}

interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  json?: unknown;
  form?: FormData;
  /** Sign-in and sign-up: a 401 there is a wrong password, not a lost session. */
  keepTokenOn401?: boolean;
  /** Send the JSON gzipped when the browser can (only `POST /sync/push` takes it). */
  gzip?: boolean;
}

/** `text` gzipped by the browser, or null where it cannot (then it goes as it is). */
async function gzipped(text: string): Promise<Blob | null> {
  if (typeof CompressionStream === 'undefined') return null;
  try {
    return await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream('gzip'))).blob();
  } catch {
    return null;
  }
}

interface ErrorBody {
  code?: string;
  message?: string;
  errors?: Record<string, string[]>;
  error_codes?: Record<string, string[]>;
}

/** Saves a file the server makes (a CSV export) under the name it gives. */
export async function download(path: string): Promise<void> {
  const headers: Record<string, string> = {};
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, { headers });
  } catch {
    throw new ApiError(0, 'network_error', 'Network error');
  }
  if (!response.ok) {
    const error = ((await response.json().catch(() => null)) ?? {}) as ErrorBody;
    throw new ApiError(response.status, error.code ?? `http_${response.status}`, error.message ?? response.statusText);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? 'export.csv';
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let body: BodyInit | undefined;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
    const packed = options.gzip ? await gzipped(body) : null;
    if (packed) {
      headers['Content-Encoding'] = 'gzip';
      body = packed;
    }
  } else if (options.form) {
    body = options.form;
  }
  let response: Response;
  try {
    response = await fetch(`/api/v1${path}`, { method: options.method ?? 'GET', headers, body });
  } catch {
    throw new ApiError(0, 'network_error', 'Network error');
  }
  const data: unknown = await response.json().catch(() => null);
  if (!response.ok) {
    const error = (data ?? {}) as ErrorBody;
    if (response.status === 401 && !options.keepTokenOn401) {
      setToken(null);
      window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
    }
    throw new ApiError(
      response.status,
      error.code ?? `http_${response.status}`,
      error.message ?? response.statusText,
      error.errors,
      error.error_codes,
    );
  }
  return data as T;
}
