// The preview of a message line: white space collapsed, ends trimmed, PREVIEW_LENGTH characters,
// `…` when cut; decoded straight from the bytes of JSON strings into UTF-16 in the previews
// region (`makePreview` in server/store/tree-node.ts is the same rule for strings in hand;
// fast-scan.test.ts compares the two).
import { BACKSLASH, hexDigit, QUOTE, utf8Size } from './json-string';
import { PREVIEW_LENGTH } from './layout';
import { byteAt, lineEnd, pat } from './search';

let out: usize = 0;
let length: i32 = 0;
let pendingSpace = false;

/** Starts an empty preview written at `address`. */
export function startPreview(address: usize): void {
  out = address;
  length = 0;
  pendingSpace = false;
}

/** UTF-16 units in the preview so far (PREVIEW_LENGTH + 1 when it is cut). */
export function previewLength(): i32 {
  return length;
}

/** Ends the preview (`…` in its last place when cut) and returns its length in UTF-16 units. */
export function endPreview(): i32 {
  if (length > PREVIEW_LENGTH) {
    store<u16>(out + ((<usize>(PREVIEW_LENGTH - 1)) << 1), 0x2026);
    length = PREVIEW_LENGTH;
  }
  return length;
}

/** True once the preview holds more than PREVIEW_LENGTH units (it will be cut). */
export function full(): bool {
  return length > PREVIEW_LENGTH;
}

function isWhiteSpace(code: u32): bool {
  if (code <= 0x20) return code == 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code == 0xa0 ||
    code == 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code == 0x2028 ||
    code == 0x2029 ||
    code == 0x202f ||
    code == 0x205f ||
    code == 0x3000 ||
    code == 0xfeff
  );
}

/** A space before the next character, if one comes (none at the start). */
export function space(): void {
  if (length > 0) pendingSpace = true;
}

/** Adds the UTF-16 unit `code`; white space becomes one pending space. */
export function push(code: u32): void {
  if (full()) return;
  if (isWhiteSpace(code)) {
    space();
    return;
  }
  if (pendingSpace) {
    pendingSpace = false;
    store<u16>(out + ((<usize>length) << 1), 0x20);
    length++;
    if (full()) return;
  }
  store<u16>(out + ((<usize>length) << 1), <u16>code);
  length++;
}

/** Adds the characters of the static string `s`. */
export function pushAscii(s: string): void {
  const q = pat(s);
  for (let k = 0; k < s.length && !full(); k++) push(<u32>load<u16>(q + ((<usize>k) << 1)));
}

/**
 * Adds the 16 bytes at `p` as they are when that is what `push` would do with each: printable
 * ASCII without quotes or backslashes, spaces only single and between other characters, and room
 * for all of them (and a pending space) in the preview. False, adding nothing, otherwise.
 */
function pushPlainRun(p: usize): bool {
  const v = v128.load(p);
  const outside = v128.or(i8x16.lt_u(v, i8x16.splat(0x20)), i8x16.gt_u(v, i8x16.splat(0x7e)));
  const special = v128.or(
    i8x16.eq(v, i8x16.splat(<i8>QUOTE)),
    i8x16.eq(v, i8x16.splat(<i8>BACKSLASH)),
  );
  if (v128.any_true(v128.or(outside, special))) return false;
  const spaces = i8x16.bitmask(i8x16.eq(v, i8x16.splat(0x20)));
  if ((spaces & (spaces >> 1)) != 0 || (spaces & 0x8001) != 0) return false;
  const pending: i32 = pendingSpace ? 1 : 0;
  if (length + pending + 16 > PREVIEW_LENGTH + 1) return false;
  if (pendingSpace) {
    pendingSpace = false;
    store<u16>(out + ((<usize>length) << 1), 0x20);
    length++;
  }
  const at = out + ((<usize>length) << 1);
  v128.store(at, i16x8.extend_low_i8x16_u(v));
  v128.store(at + 16, i16x8.extend_high_i8x16_u(v));
  length += 16;
  return true;
}

/** pushJsonString's results besides the closing quote's address. */
export const STOPPED_FULL: usize = 1;
export const MALFORMED: usize = 2;

/**
 * Decodes the JSON string whose first byte (after the opening quote) is at `p`, until its
 * closing quote or until the preview is full. Returns the closing quote's address, STOPPED_FULL
 * or MALFORMED.
 */
export function pushJsonString(p: usize, end: usize): usize {
  let i = p;
  let slowUntil: usize = 0;
  while (i < end) {
    if (full()) return STOPPED_FULL;
    if (i >= slowUntil && i + 16 <= end) {
      if (pushPlainRun(i)) {
        i += 16;
        continue;
      }
      slowUntil = i + 16;
    }
    const c = byteAt(i);
    if (c == QUOTE) return i;
    if (c == BACKSLASH) {
      const e = i + 1 < lineEnd ? byteAt(i + 1) : 0;
      if (e == 0x22 || e == 0x5c || e == 0x2f) {
        push(e);
        i += 2;
        continue;
      }
      if (e == 0x62) {
        push(0x08);
        i += 2;
        continue;
      }
      if (e == 0x66) {
        push(0x0c);
        i += 2;
        continue;
      }
      if (e == 0x6e) {
        push(0x0a);
        i += 2;
        continue;
      }
      if (e == 0x72) {
        push(0x0d);
        i += 2;
        continue;
      }
      if (e == 0x74) {
        push(0x09);
        i += 2;
        continue;
      }
      if (e == 0x75) {
        if (i + 6 > end) return MALFORMED;
        let code: u32 = 0;
        for (let k = i + 2; k < i + 6; k++) {
          const digit = hexDigit(byteAt(k));
          if (digit < 0) return MALFORMED;
          code = code * 16 + <u32>digit;
        }
        push(code);
        i += 6;
        continue;
      }
      return MALFORMED;
    }
    if (c < 0x20) return MALFORMED;
    if (c < 0x80) {
      push(c);
      i++;
      continue;
    }
    // Multi-byte UTF-8: decode the code point, push UTF-16 code units. Bytes that are not
    // well-formed UTF-8 (which Buffer's decoder replaces with U+FFFD) go to the parse.
    const size = i < end ? utf8Size(i) : 0;
    if (size == 0 || i + size > end) return MALFORMED;
    let point: u32 = c & (size == 2 ? 0x1f : size == 3 ? 0x0f : 0x07);
    for (let k: usize = 1; k < size; k++) point = (point << 6) | (byteAt(i + k) & 0x3f);
    if (point > 0xffff) {
      point -= 0x10000;
      push(0xd800 + (point >> 10));
      push(0xdc00 + (point & 0x3ff));
    } else {
      push(point);
    }
    i += size;
  }
  return MALFORMED;
}
