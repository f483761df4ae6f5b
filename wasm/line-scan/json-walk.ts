// A validating walk over JSON values in the line, without building them: where each value ends, or
// 0 when the bytes are not JSON that JSON.parse would accept in the compact form pi and Arbor
// write (white space between tokens, which JSON allows, is left to the parse as well). The message
// reader (message-line.ts) walks the objects whose keys it needs with this, so every key it reads
// is a key of the object it means, at its depth, and everything else is skipped as a whole value.
import { BACKSLASH, hexDigit, QUOTE } from './json-string';
import { byteAt, lineEnd, matchAt } from './search';

/** Containers nested deeper than this are left to the parse (which refuses 512 levels). */
const MAX_DEPTH = 64;

const COMMA: u32 = 0x2c;
const COLON: u32 = 0x3a;
const OPEN_OBJECT: u32 = 0x7b;
const CLOSE_OBJECT: u32 = 0x7d;
const OPEN_ARRAY: u32 = 0x5b;
const CLOSE_ARRAY: u32 = 0x5d;
const MINUS: u32 = 0x2d;

/** The byte at `p`, or 0 at and past the line's end. */
export function peek(p: usize): u32 {
  return p < lineEnd ? byteAt(p) : 0;
}

/** Where the escape at `p` (a backslash) ends, or 0 when JSON does not allow it. */
function escapeEnd(p: usize): usize {
  const e = peek(p + 1);
  if (
    e == QUOTE ||
    e == BACKSLASH ||
    e == 0x2f ||
    e == 0x62 ||
    e == 0x66 ||
    e == 0x6e ||
    e == 0x72 ||
    e == 0x74
  ) {
    return p + 2;
  }
  if (e != 0x75 || p + 6 > lineEnd) return 0;
  for (let k = p + 2; k < p + 6; k++) if (hexDigit(byteAt(k)) < 0) return 0;
  return p + 6;
}

/**
 * Where the string whose opening quote is at `p` ends (after its closing quote), or 0. Sixteen
 * bytes at a time up to the next quote, backslash or control character (which JSON forbids raw).
 * Bytes that are not UTF-8 are accepted: the decoder replaces them, JSON.parse does not see them.
 */
export function skipString(p: usize): usize {
  const end = lineEnd;
  const quote = i8x16.splat(<i8>QUOTE);
  const backslash = i8x16.splat(<i8>BACKSLASH);
  const control = i8x16.splat(0x20);
  let i = p + 1;
  while (i < end) {
    if (i + 16 <= end) {
      const v = v128.load(i);
      const stops = v128.or(
        v128.or(i8x16.eq(v, quote), i8x16.eq(v, backslash)),
        i8x16.lt_u(v, control),
      );
      const mask = i8x16.bitmask(stops);
      if (mask == 0) {
        i += 16;
        continue;
      }
      i += <usize>ctz(mask);
    }
    const c = byteAt(i);
    if (c == QUOTE) return i + 1;
    if (c == BACKSLASH) {
      i = escapeEnd(i);
      if (i == 0) return 0;
      continue;
    }
    if (c < 0x20) return 0;
    i++;
  }
  return 0;
}

function isDigit(c: u32): bool {
  return c >= 0x30 && c <= 0x39;
}

function digitsEnd(p: usize): usize {
  let i = p;
  while (isDigit(peek(i))) i++;
  return i;
}

/** Where the number at `p` ends, or 0 (JSON's grammar: no leading zeros, no bare dot). */
function skipNumber(p: usize): usize {
  let i = p;
  if (peek(i) == MINUS) i++;
  const first = peek(i);
  if (first == 0x30) i++;
  else if (first >= 0x31 && first <= 0x39) i = digitsEnd(i + 1);
  else return 0;
  if (peek(i) == 0x2e) {
    const fraction = digitsEnd(i + 1);
    if (fraction == i + 1) return 0;
    i = fraction;
  }
  const e = peek(i);
  if (e == 0x65 || e == 0x45) {
    i++;
    const sign = peek(i);
    if (sign == 0x2b || sign == MINUS) i++;
    const exponent = digitsEnd(i);
    if (exponent == i) return 0;
    i = exponent;
  }
  return i;
}

/** Where the value at `p` ends, or 0. `depth`: the containers it sits in. */
export function skipValue(p: usize, depth: i32): usize {
  const c = peek(p);
  if (c == QUOTE) return skipString(p);
  if (c == OPEN_OBJECT) return skipObject(p, depth + 1);
  if (c == OPEN_ARRAY) return skipArray(p, depth + 1);
  if (c == 0x74) return matchAt(p, 'true') ? p + 4 : 0;
  if (c == 0x66) return matchAt(p, 'false') ? p + 5 : 0;
  if (c == 0x6e) return matchAt(p, 'null') ? p + 4 : 0;
  if (c == MINUS || isDigit(c)) return skipNumber(p);
  return 0;
}

function skipObject(p: usize, depth: i32): usize {
  if (depth > MAX_DEPTH) return 0;
  let i = p + 1;
  if (peek(i) == CLOSE_OBJECT) return i + 1;
  while (true) {
    if (peek(i) != QUOTE) return 0;
    i = skipString(i);
    if (i == 0 || peek(i) != COLON) return 0;
    i = skipValue(i + 1, depth);
    if (i == 0) return 0;
    const c = peek(i);
    if (c == CLOSE_OBJECT) return i + 1;
    if (c != COMMA) return 0;
    i++;
  }
}

function skipArray(p: usize, depth: i32): usize {
  if (depth > MAX_DEPTH) return 0;
  let i = p + 1;
  if (peek(i) == CLOSE_ARRAY) return i + 1;
  while (true) {
    i = skipValue(i, depth);
    if (i == 0) return 0;
    const c = peek(i);
    if (c == CLOSE_ARRAY) return i + 1;
    if (c != COMMA) return 0;
    i++;
  }
}

/**
 * The members of one object, read in turn: `start` at its `{` (or right after a member the
 * caller read itself, at the `,` or `}` that follows it), then `next` gives each key's range
 * and leaves `value` at its value, which the caller reads or skips with `skip`. Unmanaged: its
 * instances live in static memory (`memory.data`, one segment each), as the module allocates
 * nothing. Their fields start zeroed; `open` or `resume` sets them.
 */
@unmanaged
export class Members {
  /** The current key's first byte and closing quote; `escaped` when it holds a backslash. */
  keyStart: usize = 0;
  keyEnd: usize = 0;
  escaped: bool = false;
  /** The current value's first byte, then (after `skip` or `valueRead`) the byte after it. */
  value: usize = 0;
  /** Where the object ended (after its `}`), once `next` returned false without failing. */
  end: usize = 0;
  failed: bool = false;
  private at: usize = 0;
  private first: bool = false;

  /** Walks the object whose `{` is at `p`. */
  open(p: usize): void {
    this.at = p + 1;
    this.first = true;
    this.failed = peek(p) != OPEN_OBJECT;
  }

  /** Goes on after a member the caller read, from `p` (its `,` or the object's `}`). */
  resume(p: usize): void {
    this.at = p;
    this.first = false;
    this.failed = false;
  }

  /** The next member, or false at the object's end (or on bad JSON: `failed`). */
  next(): bool {
    if (this.failed) return false;
    let i = this.at;
    const c = peek(i);
    if (c == CLOSE_OBJECT) {
      this.end = i + 1;
      return false;
    }
    if (!this.first) {
      if (c != COMMA) return this.fail();
      i++;
    }
    this.first = false;
    if (peek(i) != QUOTE) return this.fail();
    const close = skipString(i);
    if (close == 0 || peek(close) != COLON) return this.fail();
    this.keyStart = i + 1;
    this.keyEnd = close - 1;
    this.escaped = false;
    for (let k = i + 1; k < close - 1; k++) {
      if (byteAt(k) == BACKSLASH) this.escaped = true;
    }
    this.value = close + 1;
    return true;
  }

  /** True when the current key is `name` (a key with escapes is never compared: see callers). */
  is(name: string): bool {
    const length = <usize>name.length;
    return this.keyEnd - this.keyStart == length && matchAt(this.keyStart, name);
  }

  /** Skips the current value (`depth`: the containers the object sits in, itself included). */
  skip(depth: i32): bool {
    const end = skipValue(this.value, depth);
    if (end == 0) return this.fail();
    this.at = end;
    return true;
  }

  /** The caller read the current value itself; it ended at `end` (0: it was not valid). */
  valueRead(end: usize): bool {
    if (end == 0) return this.fail();
    this.at = end;
    return true;
  }

  private fail(): bool {
    this.failed = true;
    return false;
  }
}
