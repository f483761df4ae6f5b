// The module's memory as the caller (server/store/line-scan.ts) reads it: the table of line rows,
// the previews, the input; and the writes to the row of the line being scanned. The caller reads
// the sizes and offsets through the getters line-scan.ts exports, and keeps its own copy of the
// line kinds and the row's fields.

/** Lines one call to `scan` reports at most. */
export const BATCH: i32 = 2048;
/** Int32 fields per line in the table. */
export const FIELDS: i32 = 16;
/** Preview characters kept per line: PREVIEW_LENGTH + 1 (enough to know it is cut). */
export const PREVIEW_LENGTH: i32 = 80;
export const PREVIEW_UNITS: i32 = PREVIEW_LENGTH + 1;

// Byte offsets of the three regions.
export const TABLE: usize = 65536;
export const PREVIEWS: usize = TABLE + <usize>(BATCH * FIELDS * 4);
export const INPUT: usize = (PREVIEWS + <usize>(BATCH * PREVIEW_UNITS * 2) + 65535) & ~65535;

// Line kinds.
export const PARSE: i32 = 0;
export const NODE: i32 = 1;
export const BLANK: i32 = 2;

// Table fields.
export const F_START = 0;
export const F_END = 1;
export const F_KIND = 2;
export const F_ID = 3;
export const F_ID_END = 4;
export const F_PARENT = 5; // -1: null
export const F_PARENT_END = 6;
export const F_TIME = 7;
export const F_TIME_END = 8;
export const F_ROLE = 9; // 1 user, 2 assistant, 3 toolResult, 4 bashExecution
export const F_TOOL_CALLS = 10; // -1: none (not an assistant)
export const F_ERROR = 11;
export const F_PREVIEW_LENGTH = 12; // UTF-16 units at PREVIEWS + line * PREVIEW_UNITS * 2

let row: usize = 0;

/** Makes `set` write the row of the `line`th line of this batch. */
export function startRow(line: i32): void {
  row = TABLE + <usize>(line * FIELDS * 4);
}

export function set(field: i32, value: i32): void {
  store<i32>(row + ((<usize>field) << 2), value);
}

/** The offset of the address `p` as the caller counts it (from the input's start). */
export function rel(p: usize): i32 {
  return <i32>(p - INPUT);
}
