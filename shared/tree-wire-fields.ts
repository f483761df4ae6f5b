/*
 * How single values of the tree encoding (shared/tree-wire.ts) are written: base-64 digits for
 * shape codes and ids, ids of 8 hex digits as 32-bit numbers, timestamps as milliseconds. The
 * timestamp helpers are fast for runs of times within one hour, as a session's entries are.
 */

/** Digits of shape codes and packed ids, lowest first: base64url's alphabet. */
export const WIRE_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
/** Characters per packed id: an 8-hex-digit id is a 32-bit number, six base-64 digits. */
export const PACKED_ID_WIDTH = 6;

/** Digits per shape code for a table of `count` shapes. */
export function shapeCodeWidth(count: number): number {
  let width = 1;
  while (64 ** width < count) width++;
  return width;
}

const DIGIT_CODES = Uint8Array.from(WIRE_DIGITS, (digit) => digit.charCodeAt(0));

/** Hex digit values by char code (lowercase only), -1 elsewhere. */
const HEX_VALUES: Int8Array = (() => {
  const values = new Int8Array(128).fill(-1);
  for (let i = 0; i < 16; i++) values['0123456789abcdef'.charCodeAt(i)] = i;
  return values;
})();

/** The 32-bit number an id of 8 lowercase hex digits spells, or -1 for any other id. */
export function hexIdValue(id: string): number {
  if (id.length !== 8) return -1;
  let value = 0;
  for (let k = 0; k < 8; k++) {
    const code = id.charCodeAt(k);
    const digit = code < 128 ? HEX_VALUES[code]! : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

/** Writes `value` as `width` base-64 digits, most significant first, from `at`. */
export function writeDigits(value: number, width: number, out: Uint8Array, at: number): void {
  let rest = value;
  for (let k = width - 1; k >= 0; k--) {
    out[at + k] = DIGIT_CODES[rest % 64]!;
    rest = Math.floor(rest / 64);
  }
}

const HOUR_MS = 3_600_000;
const TAIL = 10; // "MM:SS.mmmZ", after the hour

function digitAt(text: string, at: number): number {
  const digit = text.charCodeAt(at) - 48;
  return digit >= 0 && digit <= 9 ? digit : NaN;
}

/**
 * Reads timestamps as `Date#toISOString` writes them (`undefined` for any other string), fast
 * while they stay within one hour: the hour is parsed once, then only minutes, seconds and
 * milliseconds.
 */
export class TimeReader {
  private hour = '';
  private hourMs = 0;

  read(timestamp: string): number | undefined {
    const tail = timestamp.length - TAIL;
    if (tail === this.hour.length && tail > 0 && timestamp.startsWith(this.hour)) {
      const minutes = digitAt(timestamp, tail) * 10 + digitAt(timestamp, tail + 1);
      const seconds = digitAt(timestamp, tail + 3) * 10 + digitAt(timestamp, tail + 4);
      const ms =
        digitAt(timestamp, tail + 6) * 100 +
        digitAt(timestamp, tail + 7) * 10 +
        digitAt(timestamp, tail + 8);
      if (
        minutes < 60 &&
        seconds < 60 &&
        ms >= 0 &&
        timestamp[tail + 2] === ':' &&
        timestamp[tail + 5] === '.' &&
        timestamp[tail + 9] === 'Z'
      )
        return this.hourMs + minutes * 60_000 + seconds * 1000 + ms;
    }
    const ms = Date.parse(timestamp);
    if (Number.isNaN(ms) || new Date(ms).toISOString() !== timestamp) return undefined;
    this.hour = timestamp.slice(0, tail);
    this.hourMs = ms - (((ms % HOUR_MS) + HOUR_MS) % HOUR_MS);
    return ms;
  }
}

const TWO_DIGITS = Array.from({ length: 60 }, (_, k) => String(k).padStart(2, '0'));
const THREE_DIGITS = Array.from({ length: 1000 }, (_, k) => String(k).padStart(3, '0'));

/** Writes times as `Date#toISOString` does, formatting the hour once per run within it. */
export class TimeWriter {
  private hour = '';
  private hourMs = NaN;

  write(ms: number): string {
    const into = ms - this.hourMs;
    if (into >= 0 && into < HOUR_MS) {
      const seconds = Math.floor(into / 1000);
      return `${this.hour}${TWO_DIGITS[Math.floor(seconds / 60)]}:${TWO_DIGITS[seconds % 60]}.${THREE_DIGITS[into % 1000]}Z`;
    }
    const iso = new Date(ms).toISOString();
    this.hour = iso.slice(0, iso.length - TAIL);
    this.hourMs = ms - (((ms % HOUR_MS) + HOUR_MS) % HOUR_MS);
    return iso;
  }
}

const DIGIT_VALUES: Int8Array = (() => {
  const values = new Int8Array(128).fill(-1);
  for (let i = 0; i < WIRE_DIGITS.length; i++) values[WIRE_DIGITS.charCodeAt(i)] = i;
  return values;
})();

/** The number `width` base-64 digits from `at` spell, or -1 when one is not a digit. */
export function readDigits(text: string, at: number, width: number): number {
  let value = 0;
  for (let k = 0; k < width; k++) {
    const code = text.charCodeAt(at + k);
    const digit = code < 128 ? DIGIT_VALUES[code]! : -1;
    if (digit < 0) return -1;
    value = value * 64 + digit;
  }
  return value;
}

const HEX_BYTES = Array.from({ length: 256 }, (_, k) => k.toString(16).padStart(2, '0'));

/** The id of 8 lowercase hex digits that spells a 32-bit number. */
export function hexId(value: number): string {
  return (
    HEX_BYTES[value >>> 24]! +
    HEX_BYTES[(value >>> 16) & 255]! +
    HEX_BYTES[(value >>> 8) & 255]! +
    HEX_BYTES[value & 255]!
  );
}
