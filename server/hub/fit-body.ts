/*
 * Entry and message bodies cut to fit a WebSocket frame (decision 055). A client's socket is
 * closed once more than four times its buffer limit waits unsent, so a body that alone passes a
 * frame budget (a 10 MB image, a 50 MB tool output) would take the connection down with it.
 * Such a body is sent cut instead: long strings keep their head and end with a marker that says how
 * much was left out, images become a text block that names them, long arrays keep their head. The
 * session file keeps everything; the download (and pi) still have the whole body.
 */

/** The text that replaces what was cut, so a reader sees that (and how much) is missing. */
export function cutMarker(bytes: number, ofBytes?: number): string {
  const what =
    ofBytes === undefined ? formatBytes(bytes) : `${formatBytes(bytes)} of ${formatBytes(ofBytes)}`;
  return `[… ${what} not shown here: too large to send to the page; download the session for all of it]`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

/** The UTF-8 size of `value` as JSON. */
export function jsonBytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? '');
}

export interface FittedBody<T> {
  value: T;
  /** The UTF-8 JSON size of `value` (after any cut). */
  bytes: number;
  /** Whether anything was cut. */
  cut: boolean;
}

const MAX_ARRAY_ITEMS = 200;

/**
 * `value` as it is when its JSON is at most `maxBytes`, else a copy cut to fit: strings (and
 * images) over a cap shrink until the whole fits or the cap reaches its floor.
 */
export function fitBody<T>(value: T, maxBytes: number): FittedBody<T> {
  const bytes = jsonBytes(value);
  if (bytes <= maxBytes) return { value, bytes, cut: false };
  let cap = Math.max(256, Math.floor(maxBytes / 8));
  for (;;) {
    const cut = shrink(value, cap) as T;
    const cutBytes = jsonBytes(cut);
    if (cutBytes <= maxBytes || cap <= 64) return { value: cut, bytes: cutBytes, cut: true };
    cap = Math.floor(cap / 4);
  }
}

function shrink(value: unknown, cap: number): unknown {
  if (typeof value === 'string') {
    if (value.length <= cap) return value;
    const total = Buffer.byteLength(value);
    const left = total - Buffer.byteLength(value.slice(0, cap));
    return `${value.slice(0, cap)}${cutMarker(left, total)}`;
  }
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ARRAY_ITEMS).map((item) => shrink(item, cap));
    return items;
  }
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (record.type === 'image' && typeof record.data === 'string' && record.data.length > cap) {
      const mime = typeof record.mimeType === 'string' ? record.mimeType : 'image';
      // Base64: four characters carry three bytes.
      const size = Math.floor((record.data.length * 3) / 4);
      return { type: 'text', text: `[${mime} image of ${formatBytes(size)}] ${cutMarker(size)}` };
    }
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(record)) out[key] = shrink(item, cap);
    return out;
  }
  return value;
}
