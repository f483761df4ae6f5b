/*
 * How long a provider that answered 429 or 5xx asks to be left alone: `retry-after-ms` (OpenAI's),
 * else `retry-after` in seconds or as an HTTP date. The agent loop waits that long before it
 * retries (retry-policy.ts), within its own cap.
 */

/** Milliseconds from the response's headers (names in lower case), or undefined when none says. */
export function retryAfterMs(headers: Record<string, string> | undefined): number | undefined {
  if (!headers) return undefined;
  const msHeader = headers['retry-after-ms'];
  const ms = Number(msHeader);
  if (msHeader !== undefined && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers['retry-after'];
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, date - Date.now()) : undefined;
}
