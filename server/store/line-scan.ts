import type { TreeNode } from '../../shared/session-entries.js';
import { LINE_SCAN_WASM } from './line-scan-wasm.js';

/*
 * The line scan of a session file, in WebAssembly (source: wasm/line-scan/, built by
 * `npm run build:wasm`). A big session's first open spends most of its time cutting lines and
 * reading message skeletons; in JavaScript that code runs cold (interpreted, then compiled by
 * the optimising compiler while the file is read), while WebAssembly is compiled once, before
 * its first line, and runs at full speed from there. The module finds the lines, walks each
 * message line as JSON (so it reads what JSON.parse would, duplicate keys and all), finds the
 * byte ranges of its id, parent and timestamp and decodes its preview; this file makes the
 * strings and the node. Lines it does not read as JSON.parse would for certain (another key
 * order, an unknown role or stop reason, a key the node needs given twice, white space between
 * tokens, invalid UTF-8 in the preview, images) come back as PARSE, for JSON.parse.
 */

/** What the scan says of a line: NODE (its skeleton is in the row), else PARSE or BLANK (0, 2). */
export const NODE = 1;

// The fields of a line's row (as wasm/line-scan/layout.ts lays them out).
const F_START = 0;
const F_END = 1;
const F_KIND = 2;
const F_ID = 3;
const F_ID_END = 4;
const F_PARENT = 5;
const F_PARENT_END = 6;
const F_TIME = 7;
const F_TIME_END = 8;
const F_ROLE = 9;
const F_TOOL_CALLS = 10;
const F_ERROR = 11;
const F_PREVIEW_LENGTH = 12;

const ROLES = [undefined, 'user', 'assistant', 'toolResult', 'bashExecution'] as const;
const PAGE = 65536;
/** UTF-16 units kept per preview in the module's memory (80 characters, one more to know a cut). */
const PREVIEW_UNITS = 81;

/**
 * Node's Latin-1 decoder, the one `Buffer#toString('latin1', …)` ends in after looking the encoding
 * up. Called straight, the two strings of each of the 20,000 lines of a big session cost ~10 ms
 * less CPU on its first open (docs/decisions/070-open-time.md, fifth round): the lookup and
 * `toString`'s argument checks are not run, and not compiled while the file is read. It is not
 * in Node's documentation, so `toString` stays the fallback.
 */
type Latin1Slice = (this: Buffer, start: number, end: number) => string;
const latin1Slice: Latin1Slice =
  (Buffer.prototype as Buffer & { latin1Slice?: Latin1Slice }).latin1Slice ??
  function (this: Buffer, start: number, end: number) {
    return this.toString('latin1', start, end);
  };

/** The part of the engine's WebAssembly API used here (the server's type libraries lack it). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
  grow(pages: number): number;
}
interface WasmApi {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: unknown };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

interface Exports {
  memory: WasmMemory;
  scan(from: number, filled: number): number;
  nextStart(): number;
  batch(): number;
  fields(): number;
  tableOffset(): number;
  previewsOffset(): number;
  inputOffset(): number;
}

let compiled: object | undefined;

/** The module, compiled on first use (a few kilobytes: well under a millisecond). */
function lineScanModule(): object {
  compiled ??= new wasm.Module(Buffer.from(LINE_SCAN_WASM, 'base64'));
  return compiled;
}

/**
 * One scan's memory: the bytes read (`input`, a Buffer over the module's memory that the caller
 * reads the file into) and the rows of the last batch. One per file loaded, so its memory goes
 * when the load is done.
 */
export class LineScanner {
  private readonly exports: Exports;
  private readonly tableAt: number;
  private readonly previewsAt: number;
  private readonly inputAt: number;
  readonly batchSize: number;
  private readonly fieldCount: number;
  private memory!: Buffer;
  private table!: Int32Array;
  /** Rows of the last batch, and the previews region of that batch as one string (made on first use). */
  private rows = 0;
  private batchPreviews: string | undefined;
  /** The bytes read, from the file offset the caller keeps. */
  input!: Buffer;

  constructor(inputBytes: number) {
    const instance = new wasm.Instance(lineScanModule(), {});
    this.exports = instance.exports as unknown as Exports;
    this.tableAt = this.exports.tableOffset();
    this.previewsAt = this.exports.previewsOffset();
    this.inputAt = this.exports.inputOffset();
    this.batchSize = this.exports.batch();
    this.fieldCount = this.exports.fields();
    this.ensureInput(inputBytes);
  }

  /** Makes `input` at least `bytes` long (its content is kept). */
  ensureInput(bytes: number): void {
    const memory = this.exports.memory;
    // 16 bytes past the input: the module's 16-byte loads may read (never use) them.
    const needed = this.inputAt + bytes + 16;
    if (memory.buffer.byteLength < needed) {
      memory.grow(Math.ceil((needed - memory.buffer.byteLength) / PAGE));
    }
    this.memory = Buffer.from(memory.buffer);
    this.table = new Int32Array(memory.buffer, this.tableAt, this.batchSize * this.fieldCount);
    this.input = this.memory.subarray(this.inputAt, this.inputAt + bytes);
  }

  /**
   * Scans `input[from, filled)`: the lines that end with a newline which is not the last byte
   * read, at most `batchSize`. Returns how many; `next` is then the offset after the last.
   */
  scan(from: number, filled: number): number {
    this.batchPreviews = undefined;
    this.rows = this.exports.scan(from, filled);
    return this.rows;
  }

  /**
   * The previews region of the last batch as one string: each preview is a substring of it, which
   * V8 keeps as a slice (a pointer and two numbers) rather than a copy. One string per batch is
   * made in one call and, at ~300 KB, is allocated where the collector does not copy it; 20,000
   * short strings were made in 20,000 calls and copied by every young-generation collection.
   */
  private previews(): string {
    this.batchPreviews ??= this.memory.toString(
      'utf16le',
      this.previewsAt,
      this.previewsAt + this.rows * PREVIEW_UNITS * 2,
    );
    return this.batchPreviews;
  }

  get next(): number {
    return this.exports.nextStart();
  }

  kind(row: number): number {
    return this.table[row * this.fieldCount + F_KIND]!;
  }

  start(row: number): number {
    return this.table[row * this.fieldCount + F_START]!;
  }

  end(row: number): number {
    return this.table[row * this.fieldCount + F_END]!;
  }

  /**
   * The node of a NODE row, equal to `nodeOfEntry(JSON.parse(line))` (tested). `previousId` is the
   * id of the line before (most often the parent): its string is shared, not made again.
   */
  node(row: number, previousId: string | undefined): TreeNode {
    const t = this.table;
    const r = row * this.fieldCount;
    const at = this.inputAt;
    const memory = this.memory;
    const id = latin1Slice.call(memory, at + t[r + F_ID]!, at + t[r + F_ID_END]!);
    const parentStart = t[r + F_PARENT]!;
    let parentId: string | null = null;
    if (parentStart >= 0) {
      const parentEnd = t[r + F_PARENT_END]!;
      parentId =
        previousId !== undefined && isAsciiAt(memory, at + parentStart, at + parentEnd, previousId)
          ? previousId
          : latin1Slice.call(memory, at + parentStart, at + parentEnd);
    }
    const timestamp = latin1Slice.call(memory, at + t[r + F_TIME]!, at + t[r + F_TIME_END]!);
    const role = ROLES[t[r + F_ROLE]!]!;
    const previewAt = row * PREVIEW_UNITS;
    const preview = this.previews().substring(previewAt, previewAt + t[r + F_PREVIEW_LENGTH]!);
    const calls = t[r + F_TOOL_CALLS]!;
    const isError = t[r + F_ERROR] === 1;
    const type = 'message';
    // Made whole at once (one object shape per kind), keys in the order nodeOfEntry gives them.
    if (calls < 0) {
      return isError
        ? { id, parentId, type, role, preview, timestamp, isError }
        : { id, parentId, type, role, preview, timestamp };
    }
    const toolCalls = calls;
    return isError
      ? { id, parentId, type, role, preview, timestamp, toolCalls, isError }
      : { id, parentId, type, role, preview, timestamp, toolCalls };
  }
}

/** True when `bytes[start, end)` are the characters of `text` (ASCII). */
function isAsciiAt(bytes: Uint8Array, start: number, end: number, text: string): boolean {
  if (end - start !== text.length) return false;
  for (let k = 0; k < text.length; k++) if (bytes[start + k] !== text.charCodeAt(k)) return false;
  return true;
}
