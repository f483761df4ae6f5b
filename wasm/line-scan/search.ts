// The line being scanned, comparisons with static strings (UTF-16 in memory, ASCII here, compared
// byte by unit) and the search for its end; every read stays inside the line, and 16-byte loads
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
