// The line being scanned and the byte searches in it. Patterns are static strings (UTF-16 in
// memory, ASCII here), compared byte by unit; every read stays inside the line, and 16-byte loads
// happen only where 16 bytes of it remain.

/** The line being scanned ends at `lineEnd` (an absolute address; set by `startLine`). */
export let lineEnd: usize = 0;

export function startLine(end: usize): void {
  lineEnd = end;
}

/** The address of a static string's UTF-16 units. */
export function pat(s: string): usize {
  return changetype<usize>(s);
}

export function byteAt(p: usize): u32 {
  return <u32>load<u8>(p);
}

/** True when the bytes at `p` (inside the line) are `s`. */
export function matchAt(p: usize, s: string): bool {
  const n = <usize>s.length;
  if (p + n > lineEnd) return false;
  const q = pat(s);
  for (let k: usize = 0; k < n; k++) {
    if (<u32>load<u8>(p + k) != <u32>load<u16>(q + (k << 1))) return false;
  }
  return true;
}

/** True when `[p, e)` holds exactly `s`. */
export function isAt(p: usize, e: usize, s: string): bool {
  return e - p == <usize>s.length && matchAt(p, s);
}

/** The first `s` in `[from, lineEnd)`, or 0. Candidates are found 16 bytes at a time. */
export function indexOf(s: string, from: usize): usize {
  const n = <usize>s.length;
  if (from + n > lineEnd) return 0;
  const q = pat(s);
  const first = i8x16.splat(<i8>load<u16>(q));
  const second = i8x16.splat(<i8>load<u16>(q + 2));
  const last = lineEnd - n; // last position a match can start at
  let p = from;
  while (p + 17 <= lineEnd) {
    const a = i8x16.eq(v128.load(p), first);
    const b = i8x16.eq(v128.load(p + 1), second);
    let mask = i8x16.bitmask(v128.and(a, b));
    while (mask != 0) {
      const at = p + <usize>ctz(mask);
      if (at > last) return 0;
      if (matchAt(at, s)) return at;
      mask &= mask - 1;
    }
    p += 16;
  }
  for (; p <= last; p++) {
    if (matchAt(p, s)) return p;
  }
  return 0;
}

/** The last `s` in `[from, lineEnd)`, or 0 (pi writes these keys near the line's end). */
export function lastIndexOf(s: string, from: usize): usize {
  const n = <usize>s.length;
  if (from + n > lineEnd) return 0;
  const first = <u32>load<u16>(pat(s));
  for (let p = lineEnd - n; p >= from; p--) {
    if (byteAt(p) == first && matchAt(p, s)) return p;
    if (p == from) break;
  }
  return 0;
}

/** The first newline in `[p, end)`, or `end`; 16 bytes at a time. */
export function newline(p: usize, end: usize): usize {
  const nl = i8x16.splat(0x0a);
  while (p + 16 <= end) {
    const mask = i8x16.bitmask(i8x16.eq(v128.load(p), nl));
    if (mask != 0) return p + <usize>ctz(mask);
    p += 16;
  }
  for (; p < end; p++) if (load<u8>(p) == 0x0a) return p;
  return end;
}
