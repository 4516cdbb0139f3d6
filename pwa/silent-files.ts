// A rule of the service worker's (vite.config.ts, runtimeCaching), apart from the build's
// configuration: what the worker does with a file of the build it fetches.
/**
 * The service worker gives up a file of the build it fetches (a screen's code, a language's
 * words) when the network is silent for 30 s: before its answer begins, or between its
 * bytes once it has (the app's own requests keep the same limit: lib/silence.ts, which these
 * functions cannot import: the build writes their text into the worker). Over a link that
 * carries nothing, the screen waiting on it then says it did not come, and "Try again"
 * loads it anew (lib/code-wait.ts); a file coming slowly, its bytes still flowing, is never
 * given up. A page the worker does not control (a first visit's first page) keeps its own,
 * longer, limit.
 */
export const SILENT_FILES_GIVEN_UP = {
  requestWillFetch: async ({ request, state }: { request: Request; state?: Record<string, unknown> }) => {
    const controller = new AbortController();
    if (state) {
      state.controller = controller;
      state.timer = setTimeout(() => controller.abort(), 30_000);
    }
    return new Request(request, { signal: controller.signal });
  },
  fetchDidSucceed: async ({ response, state }: { response: Response; state?: Record<string, unknown> }) => {
    clearTimeout(state?.timer as number | undefined);
    const controller = state?.controller as AbortController | undefined;
    if (!controller || !response.body || [101, 204, 205, 304].includes(response.status)) return response;
    const reader = response.body.getReader();
    const body = new ReadableStream<Uint8Array>({
      async pull(out) {
        const timer = setTimeout(() => controller.abort(), 30_000);
        try {
          const { done, value } = await reader.read();
          if (done) out.close();
          else out.enqueue(value);
        } finally {
          clearTimeout(timer);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    const { status, statusText, headers } = response;
    return new Response(body, { status, statusText, headers });
  },
  fetchDidFail: async ({ state }: { state?: Record<string, unknown> }) =>
    clearTimeout(state?.timer as number | undefined),
};
