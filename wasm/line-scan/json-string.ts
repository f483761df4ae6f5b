// The ends of JSON strings in the line, found without decoding them: a short plain one (an id, a
// timestamp, a role) and a tool's name, which the scan reads only when JSON.parse would read it as
// written.
import { byteAt, lineEnd } from './search';

export const QUOTE: u32 = 0x22;
export const BACKSLASH: u32 = 0x5c;

/** The value of the hex digit `h`, or -1. */
export function hexDigit(h: u32): i32 {
  if (h >= 0x30 && h <= 0x39) return <i32>(h - 0x30);
  if (h >= 0x61 && h <= 0x66) return <i32>(h - 0x57);
  if (h >= 0x41 && h <= 0x46) return <i32>(h - 0x37);
  return -1;
}

/** End (the closing quote) of a short ASCII string without escapes starting at `p`, or 0. */
export function plainEnd(p: usize): usize {
  let max = p + 64;
  if (max > lineEnd) max = lineEnd;
  for (let i = p; i < max; i++) {
    const c = byteAt(i);
    if (c == QUOTE) return i;
    if (c == BACKSLASH || c < 0x20 || c > 0x7e) return 0;
  }
  return 0;
}

function isContinuation(c: u32): bool {
  return c >= 0x80 && c <= 0xbf;
}

/**
 * End (the closing quote) of the JSON string from `p` (a tool's name), or 0 when it is not one
 * that JSON.parse reads as written: a bad escape, a control character, or bytes that are not
 * well-formed UTF-8 (which a decoder would replace) leave the line to the parse.
 */
export function nameEnd(p: usize): usize {
  let i = p;
  while (i < lineEnd) {
    const c = byteAt(i);
    if (c == QUOTE) return i;
    if (c == BACKSLASH) {
      if (i + 1 >= lineEnd) return 0;
      const e = byteAt(i + 1);
      if (e == 0x75) {
        if (i + 6 > lineEnd) return 0;
        for (let k = i + 2; k < i + 6; k++) if (hexDigit(byteAt(k)) < 0) return 0;
        i += 6;
      } else if (
        e == 0x22 ||
        e == 0x5c ||
        e == 0x2f ||
        e == 0x62 ||
        e == 0x66 ||
        e == 0x6e ||
        e == 0x72 ||
        e == 0x74
      ) {
        i += 2;
      } else {
        return 0;
      }
      continue;
    }
    if (c < 0x20) return 0;
    if (c < 0x80) {
      i++;
      continue;
    }
    const c1 = i + 1 < lineEnd ? byteAt(i + 1) : 0;
    if (c >= 0xc2 && c <= 0xdf) {
      if (!isContinuation(c1)) return 0;
      i += 2;
      continue;
    }
    const c2 = i + 2 < lineEnd ? byteAt(i + 2) : 0;
    if (c >= 0xe0 && c <= 0xef) {
      const low: u32 = c == 0xe0 ? 0xa0 : 0x80;
      const high: u32 = c == 0xed ? 0x9f : 0xbf;
      if (c1 < low || c1 > high || !isContinuation(c2)) return 0;
      i += 3;
      continue;
    }
    const c3 = i + 3 < lineEnd ? byteAt(i + 3) : 0;
    if (c >= 0xf0 && c <= 0xf4) {
      const low: u32 = c == 0xf0 ? 0x90 : 0x80;
      const high: u32 = c == 0xf4 ? 0x8f : 0xbf;
      if (c1 < low || c1 > high || !isContinuation(c2) || !isContinuation(c3)) return 0;
      i += 4;
      continue;
    }
    return 0;
  }
  return 0;
}
