// AssemblyScript: the line scan of a session file, compiled to WebAssembly by
// `npm run build:wasm` into server/store/line-scan-wasm.ts (committed; a test checks it matches).
//
// The caller (server/store/line-scan.ts) reads the file into this module's memory and calls
// `scan`: it cuts the bytes at newlines and, for each line, reads the skeleton of a `message`
// line as pi and Arbor write it (`{"type":"message","id":…,"parentId":…,"timestamp":…,
// "message":{"role":…`) without parsing it: the byte ranges of the id, the parent and the
// timestamp, the role, the tool calls, the error flag and the preview (decoded into UTF-16).
// Anything unexpected is left to the caller's JSON.parse (kind PARSE). It relies on one property
// of JSON: a `"` inside a string is always escaped, so a pattern such as
// `{"type":"text","text":"` found in the raw bytes is structure, not string content.

// ---- Layout of the memory (byte offsets; the caller reads the same constants through the
// exported getters).

/** Lines one call to `scan` reports at most. */
const BATCH: i32 = 2048;
/** Int32 fields per line in the table. */
const FIELDS: i32 = 16;
/** Preview characters kept per line: PREVIEW_LENGTH + 1 (enough to know it is cut). */
const PREVIEW_LENGTH: i32 = 80;
const PREVIEW_UNITS: i32 = PREVIEW_LENGTH + 1;

const TABLE: usize = 65536;
const PREVIEWS: usize = TABLE + <usize>(BATCH * FIELDS * 4);
const INPUT: usize = (PREVIEWS + <usize>(BATCH * PREVIEW_UNITS * 2) + 65535) & ~65535;

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

// Line kinds.
const PARSE: i32 = 0;
const NODE: i32 = 1;
const BLANK: i32 = 2;

// Table fields.
const F_START = 0;
const F_END = 1;
const F_KIND = 2;
const F_ID = 3;
const F_ID_END = 4;
const F_PARENT = 5; // -1: null
const F_PARENT_END = 6;
const F_TIME = 7;
const F_TIME_END = 8;
const F_ROLE = 9; // 1 user, 2 assistant, 3 toolResult, 4 bashExecution
const F_TOOL_CALLS = 10; // -1: none (not an assistant)
const F_ERROR = 11;
const F_PREVIEW_LENGTH = 12; // UTF-16 units at PREVIEWS + line * PREVIEW_UNITS * 2

/** Where `scan` stopped: the offset after the last newline it reported. */
let next: i32 = 0;
export function nextStart(): i32 {
  return next;
}

// ---- Patterns: static strings (UTF-16 in memory, ASCII here), compared byte by unit.

function pat(s: string): usize {
  return changetype<usize>(s);
}

const HEAD = '{"type":"message","id":"';
const PARENT = ',"parentId":';
const TIME = ',"timestamp":"';
const ROLE = ',"message":{"role":"';
const CONTENT = ',"content":';
const TEXT_BLOCK = '{"type":"text","text":"';
const IMAGE_BLOCK = '{"type":"image"';
const TOOL_CALL = '{"type":"toolCall"';
const NAME = '"name":"';
const TOOL_NAME = '"toolName":"';
const COMMAND = '"command":"';
const STOP_REASON = '"stopReason":"';
const ERROR_MESSAGE = '"errorMessage":"';
const IS_ERROR = '"isError":';
const TOOL_CALL_ID = ',"toolCallId":"';
const CALL_ID = ',"id":"';
const TRUE = 'true';
const NULL = 'null';

const QUOTE: u32 = 0x22;
const BACKSLASH: u32 = 0x5c;

/** The line being scanned is `[lineStart, lineEnd)` (absolute addresses). */
let lineEnd: usize = 0;

function byteAt(p: usize): u32 {
  return <u32>load<u8>(p);
}

/** True when the bytes at `p` (inside the line) are `s`. */
function matchAt(p: usize, s: string): bool {
  const n = <usize>s.length;
  if (p + n > lineEnd) return false;
  const q = pat(s);
  for (let k: usize = 0; k < n; k++) {
    if (<u32>load<u8>(p + k) != <u32>load<u16>(q + (k << 1))) return false;
  }
  return true;
}

/** True when `[p, e)` holds exactly `s`. */
function isAt(p: usize, e: usize, s: string): bool {
  return e - p == <usize>s.length && matchAt(p, s);
}

/** The first `s` in `[from, lineEnd)`, or 0. Candidates are found 16 bytes at a time. */
function indexOf(s: string, from: usize): usize {
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
function lastIndexOf(s: string, from: usize): usize {
  const n = <usize>s.length;
  if (from + n > lineEnd) return 0;
  const first = <u32>load<u16>(pat(s));
  for (let p = lineEnd - n; p >= from; p--) {
    if (byteAt(p) == first && matchAt(p, s)) return p;
    if (p == from) break;
  }
  return 0;
}

/** End (the closing quote) of a short ASCII string without escapes starting at `p`, or 0. */
function plainEnd(p: usize): usize {
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
function nameEnd(p: usize): usize {
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

// ---- The preview: white space collapsed, ends trimmed, PREVIEW_LENGTH characters, `…` when
// cut; decoded straight from the bytes of JSON strings (server/store/preview-builder.ts is the
// same rule for strings in hand).

let out: usize = 0;
let length: i32 = 0;
let pendingSpace = false;

function full(): bool {
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

function space(): void {
  if (length > 0) pendingSpace = true;
}

function push(code: u32): void {
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

function pushAscii(s: string): void {
  const q = pat(s);
  for (let k = 0; k < s.length && !full(); k++) push(<u32>load<u16>(q + ((<usize>k) << 1)));
}

function hexDigit(h: u32): i32 {
  if (h >= 0x30 && h <= 0x39) return <i32>(h - 0x30);
  if (h >= 0x61 && h <= 0x66) return <i32>(h - 0x57);
  if (h >= 0x41 && h <= 0x46) return <i32>(h - 0x37);
  return -1;
}

/** pushJsonString's results besides the closing quote's address. */
const STOPPED_FULL: usize = 1;
const MALFORMED: usize = 2;

/**
 * Decodes the JSON string whose first byte (after the opening quote) is at `p`, until its
 * closing quote or until the preview is full. Returns the closing quote's address, STOPPED_FULL
 * or MALFORMED.
 */
function pushJsonString(p: usize, end: usize): usize {
  let i = p;
  while (i < end) {
    if (full()) return STOPPED_FULL;
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
    // Multi-byte UTF-8: decode the code point, push UTF-16 code units.
    let point: u32;
    let size: usize;
    if (c >= 0xf0) {
      point = c & 0x07;
      size = 4;
    } else if (c >= 0xe0) {
      point = c & 0x0f;
      size = 3;
    } else if (c >= 0xc0) {
      point = c & 0x1f;
      size = 2;
    } else {
      return MALFORMED;
    }
    if (i + size > end) return MALFORMED;
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

/** Pushes every text block from `from` to `end` until the preview is full; false if malformed. */
function pushTextBlocks(from: usize, end: usize): bool {
  let at = matchAt(from, TEXT_BLOCK)
    ? from
    : matchAt(from + 1, TEXT_BLOCK)
      ? from + 1
      : indexOf(TEXT_BLOCK, from);
  while (at != 0 && at < end && !full()) {
    space();
    const close = pushJsonString(at + <usize>TEXT_BLOCK.length, end);
    if (close == MALFORMED) return false;
    if (close == STOPPED_FULL) return true;
    at = indexOf(TEXT_BLOCK, close);
  }
  return true;
}

/** The first `key` at or after `at`; compared in place right after an id (where pi writes it). */
function keyAfterId(at: usize, idKey: string, key: string): usize {
  if (matchAt(at, idKey)) {
    const idEnd = plainEnd(at + <usize>idKey.length);
    if (idEnd != 0 && idEnd + 1 < lineEnd && byteAt(idEnd + 1) == 0x2c) {
      if (matchAt(idEnd + 2, key)) return idEnd + 2;
    }
  }
  return indexOf(key, at);
}

// ---- One line.

let row: usize = 0;
let base: usize = 0;

function set(field: i32, value: i32): void {
  store<i32>(row + ((<usize>field) << 2), value);
}

function rel(p: usize): i32 {
  return <i32>(p - base);
}

/** Fills the row of the message line `[start, lineEnd)`; false to leave it to the parse. */
function scanMessage(start: usize): bool {
  const end = lineEnd;
  if (end - start < 64 || !matchAt(start, HEAD) || byteAt(end - 1) != 0x7d) return false;
  const idAt = start + <usize>HEAD.length;
  const idEnd = plainEnd(idAt);
  if (idEnd <= idAt) return false;
  let at = idEnd + 1;
  if (!matchAt(at, PARENT)) return false;
  at += <usize>PARENT.length;
  if (byteAt(at) == QUOTE) {
    const parentEnd = plainEnd(at + 1);
    if (parentEnd == 0) return false;
    set(F_PARENT, rel(at + 1));
    set(F_PARENT_END, rel(parentEnd));
    at = parentEnd + 1;
  } else if (matchAt(at, NULL)) {
    set(F_PARENT, -1);
    set(F_PARENT_END, -1);
    at += 4;
  } else {
    return false;
  }
  if (!matchAt(at, TIME)) return false;
  const timeAt = at + <usize>TIME.length;
  const timeEnd = plainEnd(timeAt);
  if (timeEnd == 0) return false;
  at = timeEnd + 1;
  if (!matchAt(at, ROLE)) return false;
  const roleAt = at + <usize>ROLE.length;
  const roleEnd = plainEnd(roleAt);
  if (roleEnd == 0) return false;
  const body = roleEnd + 1;
  let role: i32;
  let toolCalls = -1;
  let isError = 0;
  length = 0;
  pendingSpace = false;

  if (isAt(roleAt, roleEnd, 'user')) {
    role = 1;
    if (!matchAt(body, CONTENT)) return false;
    const value = body + <usize>CONTENT.length;
    const first = value < end ? byteAt(value) : 0;
    if (first == QUOTE) {
      if (pushJsonString(value + 1, end) == MALFORMED) return false;
    } else if (first == 0x5b) {
      if (!pushTextBlocks(value, end)) return false;
      // An image adds "[image]" to a short preview; the parse does that rare case.
      if (!full() && indexOf(IMAGE_BLOCK, value) != 0) return false;
    } else {
      return false;
    }
  } else if (isAt(roleAt, roleEnd, 'assistant')) {
    role = 2;
    const stop = lastIndexOf(STOP_REASON, body);
    if (stop == 0) return false;
    const reason = stop + <usize>STOP_REASON.length;
    const stopEnd = plainEnd(reason);
    if (stopEnd == 0) return false;
    // A stop reason Arbor does not write (pi 1.6's "deferred", say) is left to the parse.
    const known =
      isAt(reason, stopEnd, 'stop') ||
      isAt(reason, stopEnd, 'length') ||
      isAt(reason, stopEnd, 'toolUse') ||
      isAt(reason, stopEnd, 'error') ||
      isAt(reason, stopEnd, 'aborted');
    if (!known) return false;
    // Tool calls: counted, and their names checked (a name JSON.parse would not read as written
    // goes to the parse).
    let calls = 0;
    let call = indexOf(TOOL_CALL, body);
    while (call != 0 && call < stop) {
      const nameAt = keyAfterId(call + <usize>TOOL_CALL.length, CALL_ID, NAME);
      if (nameAt == 0 || nameEnd(nameAt + <usize>NAME.length) == 0) return false;
      calls++;
      call = indexOf(TOOL_CALL, call + <usize>TOOL_CALL.length);
    }
    if (!pushTextBlocks(body, stop)) return false;
    if (length == 0 && calls > 0) {
      // "→ a → b": the names joined, as the parse's preview gives them.
      call = indexOf(TOOL_CALL, body);
      let k = 0;
      while (call != 0 && call < stop && !full()) {
        const nameAt =
          keyAfterId(call + <usize>TOOL_CALL.length, CALL_ID, NAME) + <usize>NAME.length;
        if (k > 0) space();
        push(0x2192);
        space();
        pushJsonString(nameAt, nameEnd(nameAt) + 1);
        k++;
        call = indexOf(TOOL_CALL, call + <usize>TOOL_CALL.length);
      }
    }
    if (length == 0) {
      const error = lastIndexOf(ERROR_MESSAGE, body);
      if (error != 0 && pushJsonString(error + <usize>ERROR_MESSAGE.length, end) == MALFORMED) {
        return false;
      }
    }
    toolCalls = calls;
    if (isAt(reason, stopEnd, 'error') || isAt(reason, stopEnd, 'aborted')) isError = 1;
  } else if (isAt(roleAt, roleEnd, 'toolResult')) {
    role = 3;
    const nameAt = keyAfterId(body, TOOL_CALL_ID, TOOL_NAME);
    const flag = lastIndexOf(IS_ERROR, body);
    if (nameAt == 0 || flag == 0) return false;
    const nameFrom = nameAt + <usize>TOOL_NAME.length;
    const nameTo = nameEnd(nameFrom);
    if (nameTo == 0) return false;
    pushJsonString(nameFrom, nameTo + 1);
    pushAscii(': ');
    const blocksFrom = matchAt(nameTo + 1, CONTENT) ? nameTo + 1 + <usize>CONTENT.length : nameAt;
    if (!pushTextBlocks(blocksFrom, flag)) return false;
    if (!full() && indexOf(IMAGE_BLOCK, nameAt) != 0) return false;
    if (matchAt(flag + <usize>IS_ERROR.length, TRUE)) isError = 1;
  } else if (isAt(roleAt, roleEnd, 'bashExecution')) {
    role = 4;
    const commandAt = indexOf(COMMAND, body);
    if (commandAt == 0) return false;
    pushAscii('$ ');
    if (pushJsonString(commandAt + <usize>COMMAND.length, end) == MALFORMED) return false;
  } else {
    return false;
  }
  if (length > PREVIEW_LENGTH) {
    store<u16>(out + ((<usize>(PREVIEW_LENGTH - 1)) << 1), 0x2026);
    length = PREVIEW_LENGTH;
  }
  set(F_ID, rel(idAt));
  set(F_ID_END, rel(idEnd));
  set(F_TIME, rel(timeAt));
  set(F_TIME_END, rel(timeEnd));
  set(F_ROLE, role);
  set(F_TOOL_CALLS, toolCalls);
  set(F_ERROR, isError);
  set(F_PREVIEW_LENGTH, length);
  return true;
}

function isBlank(start: usize, end: usize): bool {
  for (let i = start; i < end; i++) {
    const c = byteAt(i);
    if (c != 0x20 && c != 0x09 && c != 0x0d) return false;
  }
  return true;
}

/** The first newline in `[p, end)`, or `end`; 16 bytes at a time. */
function newline(p: usize, end: usize): usize {
  const nl = i8x16.splat(0x0a);
  while (p + 16 <= end) {
    const mask = i8x16.bitmask(i8x16.eq(v128.load(p), nl));
    if (mask != 0) return p + <usize>ctz(mask);
    p += 16;
  }
  for (; p < end; p++) if (load<u8>(p) == 0x0a) return p;
  return end;
}

/**
 * Reports the lines of the input bytes `[from, filled)` (offsets from INPUT) that end with a
 * newline which is not the last byte read (the caller decides the last line), at most BATCH of
 * them; `nextStart()` is then the offset after the last one reported. Returns how many.
 */
export function scan(from: i32, filled: i32): i32 {
  base = INPUT;
  const stopAt = INPUT + <usize>filled - 1;
  let start = INPUT + <usize>from;
  let count = 0;
  while (count < BATCH && start < stopAt) {
    const nl = newline(start, stopAt);
    if (nl >= stopAt) break;
    row = TABLE + <usize>(count * FIELDS * 4);
    out = PREVIEWS + <usize>(count * PREVIEW_UNITS * 2);
    lineEnd = nl;
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
