// The one API client: bearer token, JSON or multipart bodies, and the
// server's error shape turned into ApiError. A 401 drops the stored token
// (docs/product.md, Statuses), except on the sign-in and sign-up calls.
import { SILENCE_MS } from './silence';

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
  /** A file sent as it is, of its type (a photo, a CSV the server reads row by row). */
  file?: { blob: Blob; type: string };
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

export { SILENCE_MS };
/** A body sent adds a second to SILENCE_MS for each 2 KB (a photo on a slow uplink). */
const SENDING_BYTES_PER_MS = 2;

/** A JSON body, or null (empty, or not JSON: a proxy's page). */
function parseJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(new TextDecoder().decode(body));
  } catch {
    return null;
  }
}

/**
 * `fetch`, with its answer read whole; given up (ApiError `network_error`) when the
 * network fails or stays silent for `SILENCE_MS` (`sending`: the bytes of its body).
 */
async function send(
  url: string,
  init: RequestInit,
  sending = 0,
): Promise<{ response: Response; body: Uint8Array<ArrayBuffer> }> {
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const wait = (ms: number) => {
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(), ms);
  };
  wait(SILENCE_MS + sending / SENDING_BYTES_PER_MS);
  try {
    const response = await fetch(url, { ...init, signal: controller.signal });
    const chunks: Uint8Array[] = [];
    const reader = response.body?.getReader();
    for (;;) {
      wait(SILENCE_MS);
      const chunk = reader ? await reader.read() : { done: true as const, value: undefined };
      if (chunk.done) break;
      chunks.push(chunk.value);
    }
    const body = new Uint8Array(chunks.reduce((length, chunk) => length + chunk.length, 0));
    let at = 0;
    for (const chunk of chunks) {
      body.set(chunk, at);
      at += chunk.length;
    }
    return { response, body };
  } catch {
    throw new ApiError(0, 'network_error', 'Network error');
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A file the app keeps (a course's picture, a certificate, a list picture), fetched as
 * `fetch` would, but given up after `SILENCE_MS` of silence as every request of the app
 * is: a course's download then stops and says so, instead of waiting for ever.
 */
export async function fetchFile(url: string): Promise<Response> {
  const { response, body } = await send(url, {});
  const { status, statusText, headers } = response;
  // An answer that has no body by its status may not be given one.
  return new Response([204, 205, 304].includes(status) ? null : body, { status, statusText, headers });
}

/** `headers` with the signed-in person's token, when there is one. */
function signed(headers: Record<string, string>): Record<string, string> {
  const token = getToken();
  return token ? { ...headers, Authorization: `Bearer ${token}` } : headers;
}

/** Saves a file the server makes (a CSV export) under the name it gives. */
export async function download(path: string): Promise<void> {
  const { response, body } = await send(`/api/v1${path}`, { headers: signed({}) });
  if (!response.ok) {
    const error = (parseJson(body) ?? {}) as ErrorBody;
    throw new ApiError(response.status, error.code ?? `http_${response.status}`, error.message ?? response.statusText);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ?? 'export.csv';
  const url = URL.createObjectURL(new Blob([body], { type: response.headers.get('Content-Type') ?? 'text/csv' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const headers = signed({ Accept: 'application/json' });
  let body: BodyInit | undefined;
  let sending = 0;
  if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    const text = JSON.stringify(options.json);
    const packed = options.gzip ? await gzipped(text) : null;
    if (packed) headers['Content-Encoding'] = 'gzip';
    body = packed ?? text;
    sending = packed ? packed.size : text.length;
  } else if (options.form) {
    body = options.form;
    for (const [, value] of options.form) sending += typeof value === 'string' ? value.length : value.size;
  } else if (options.file) {
    headers['Content-Type'] = options.file.type;
    body = options.file.blob;
    sending = options.file.blob.size;
  }
  const { response, body: answer } = await send(
    `/api/v1${path}`,
    { method: options.method ?? 'GET', headers, body },
    sending,
  );
  return answered<T>(response, parseJson(answer), options);
}

/**
 * The server's answer (`status`, its JSON `data`) as `api` gives it: `data`, or an
 * ApiError thrown. Also for an answer the app did not ask for itself (lib/early-sign-in.ts).
 */
export function answered<T>(
  { status, statusText }: { status: number; statusText: string },
  data: unknown,
  options: Pick<RequestOptions, 'keepTokenOn401'> = {},
): T {
  if (status < 200 || status > 299) {
    const error = (data ?? {}) as ErrorBody;
    if (status === 401 && !options.keepTokenOn401) {
      setToken(null);
      window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
    }
    throw new ApiError(
      status,
      error.code ?? `http_${status}`,
      error.message ?? statusText,
      error.errors,
      error.error_codes,
    );
  }
  return data as T;
}
