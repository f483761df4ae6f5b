// AssemblyScript: the line scan of a session file, compiled to WebAssembly by
// `npm run build:wasm` into server/store/line-scan-wasm.ts (committed; a test checks it matches).
// This file is the module's entry: its exports are the module's.
//
// The caller (server/store/line-scan.ts) reads the file into this module's memory and calls
// `scan`: it cuts the bytes at newlines and, for each line, reads the skeleton of a `message`
// line (message-line.ts) into the line's row of the table and its preview (preview.ts), decoded
// into UTF-16. The other files: layout.ts (the memory's regions and the row's fields), search.ts
// (the line's bounds and the byte searches, SIMD), json-string.ts (where JSON strings end).
import {
  BATCH,
  BLANK,
  F_END,
  F_KIND,
  F_START,
  FIELDS,
  INPUT,
  NODE,
  PARSE,
  PREVIEW_UNITS,
  PREVIEWS,
  rel,
  set,
  startRow,
  TABLE,
} from './layout';
import { scanMessage } from './message-line';
import { startPreview } from './preview';
import { byteAt, newline, startLine } from './search';

export function batch(): i32 {
  return BATCH;
}
export function fields(): i32 {
  return FIELDS;
}
export function tableOffset(): usize {
  return TABLE;
}
export function previewsOffset(): usize {
  return PREVIEWS;
}
export function inputOffset(): usize {
  return INPUT;
}

/** Where `scan` stopped: the offset after the last newline it reported. */
let next: i32 = 0;
export function nextStart(): i32 {
  return next;
}

function isBlank(start: usize, end: usize): bool {
  for (let i = start; i < end; i++) {
    const c = byteAt(i);
    if (c != 0x20 && c != 0x09 && c != 0x0d) return false;
  }
  return true;
}

/**
 * Reports the lines of the input bytes `[from, filled)` (offsets from INPUT) that end with a
 * newline which is not the last byte read (the caller decides the last line), at most BATCH of
 * them; `nextStart()` is then the offset after the last one reported. Returns how many.
 */
export function scan(from: i32, filled: i32): i32 {
  const stopAt = INPUT + <usize>filled - 1;
  let start = INPUT + <usize>from;
  let count = 0;
  while (count < BATCH && start < stopAt) {
    const nl = newline(start, stopAt);
    if (nl >= stopAt) break;
    startRow(count);
    startPreview(PREVIEWS + <usize>(count * PREVIEW_UNITS * 2));
    startLine(nl);
    set(F_START, rel(start));
    set(F_END, rel(nl));
    const kind = isBlank(start, nl) ? BLANK : scanMessage(start) ? NODE : PARSE;
    set(F_KIND, kind);
    count++;
    start = nl + 1;
  }
  next = rel(start);
  return count;
}
