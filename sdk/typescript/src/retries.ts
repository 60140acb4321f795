// Retries that honour `Retry-After`, and never play a move twice: a fetch to hand to
// openapi-fetch (or to use as it is).
//
// A request safe to send again, a read or a request carrying an `Idempotency-Key` (every
// move GameServer sends has one: the server answers a repeated key with its first answer,
// never applying the move twice), is retried on 429, on 503 and when the network fails.
// Any other request only when the server cannot have acted on it: a 429 (throttles refuse
// before any work). The wait is the answer's `Retry-After` (seconds or an HTTP date), else
// an exponential backoff with jitter; at most `longestWait` each, `totalWait` in all.

export interface RetryOptions {
  attempts?: number;
  longestWait?: number; // seconds
  totalWait?: number; // seconds
  backoff?: number; // seconds, doubled each attempt
  fetch?: typeof fetch;
  sleep?: (seconds: number) => Promise<void>;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "PUT", "DELETE", "TRACE"]);
export const IDEMPOTENCY_KEY = "Idempotency-Key";

export function safeToRepeat(request: Request): boolean {
  return SAFE_METHODS.has(request.method.toUpperCase()) || request.headers.has(IDEMPOTENCY_KEY);
}

/** Seconds a `Retry-After` value asks to wait, or null when it says nothing usable. */
export function retryAfterSeconds(value: string | null, now: number = Date.now()): number | null {
  if (value === null) return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, (date - now) / 1000);
}

export function fetchWithRetries(options: RetryOptions = {}): typeof fetch {
  const attempts = options.attempts ?? 5;
  const longestWait = options.longestWait ?? 60;
  const totalWait = options.totalWait ?? 120;
  const backoff = options.backoff ?? 0.5;
  const send = options.fetch ?? globalThis.fetch;
  const sleep = options.sleep ?? ((s: number) => new Promise<void>((resolve) => setTimeout(resolve, s * 1000)));

  return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    const repeatable = safeToRepeat(request);
    const retried = repeatable ? [429, 503] : [429];
    let waited = 0;
    for (let attempt = 0; ; attempt++) {
      let response: Response;
      try {
        response = await send(request.clone());
      } catch (error) {
        const wait = Math.min(longestWait, backoff * 2 ** attempt * Math.random());
        if (!repeatable || attempt >= attempts || waited + wait > totalWait) throw error;
        waited += wait;
        await sleep(wait);
        continue;
      }
      if (!retried.includes(response.status) || attempt >= attempts) return response;
      const asked = retryAfterSeconds(response.headers.get("Retry-After"));
      const wait = Math.min(longestWait, asked ?? backoff * 2 ** attempt * Math.random());
      if (waited + wait > totalWait) return response;
      waited += wait;
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}
