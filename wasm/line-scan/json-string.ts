// The ends of short plain JSON strings in the line (an id, a timestamp, a role), found without
// decoding them, and the UTF-8 sequences a decoder reads as written.
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
 * The length of the well-formed UTF-8 sequence of two to four bytes at `p` (inside the line), or 0
 * for bytes a decoder would replace (overlong forms, surrogates, stray continuation bytes).
 */
export function utf8Size(p: usize): usize {
  const c = byteAt(p);
  const c1 = p + 1 < lineEnd ? byteAt(p + 1) : 0;
  if (c >= 0xc2 && c <= 0xdf) return isContinuation(c1) ? 2 : 0;
  const c2 = p + 2 < lineEnd ? byteAt(p + 2) : 0;
  if (c >= 0xe0 && c <= 0xef) {
    const low: u32 = c == 0xe0 ? 0xa0 : 0x80;
    const high: u32 = c == 0xed ? 0x9f : 0xbf;
    return c1 >= low && c1 <= high && isContinuation(c2) ? 3 : 0;
  }
  const c3 = p + 3 < lineEnd ? byteAt(p + 3) : 0;
  if (c >= 0xf0 && c <= 0xf4) {
    const low: u32 = c == 0xf0 ? 0x90 : 0x80;
    const high: u32 = c == 0xf4 ? 0x8f : 0xbf;
    return c1 >= low && c1 <= high && isContinuation(c2) && isContinuation(c3) ? 4 : 0;
  }
  return 0;
}
