import type { TreeNode } from '../../shared/session-entries.js';
import { PreviewBuilder } from './preview-builder.js';
import { ARBOR_STOP_REASONS } from './tree-node.js';

const STOP_REASONS = [...ARBOR_STOP_REASONS];

/*
 * The skeleton of a `message` line without JSON.parse. pi and Arbor write message entries as
 * `{"type":"message","id":…,"parentId":…,"timestamp":…,"message":{"role":…`; for that key order
 * this reads the envelope from the first bytes and the preview from the first text, skipping the
 * rest of the line (tool outputs, thinking and images are most of a session's bytes). Anything
 * unexpected returns undefined and the caller parses the line; the body is checked by the
 * schema when it is read. The result equals `nodeOfEntry(JSON.parse(line))` (tested).
 *
 * It relies on one property of JSON: a `"` inside a string is always escaped, so a pattern such
 * as `{"type":"text","text":"` found in the raw bytes is structure, not string content.
 */

const HEAD = Buffer.from('{"type":"message","id":"');
const PARENT = Buffer.from(',"parentId":');
const TIME = Buffer.from(',"timestamp":"');
const ROLE = Buffer.from(',"message":{"role":"');
const CONTENT = Buffer.from(',"content":');
const TEXT_BLOCK = Buffer.from('{"type":"text","text":"');
const IMAGE_BLOCK = Buffer.from('{"type":"image"');
const TOOL_CALL = Buffer.from('{"type":"toolCall"');
const NAME = Buffer.from('"name":"');
const TOOL_NAME = Buffer.from('"toolName":"');
const COMMAND = Buffer.from('"command":"');
const STOP_REASON = Buffer.from('"stopReason":"');
const ERROR_MESSAGE = Buffer.from('"errorMessage":"');
const IS_ERROR = Buffer.from('"isError":');
const TRUE = Buffer.from('true');
const NULL = Buffer.from('null');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** Shared role strings, so 20,000 nodes do not carry 20,000 copies of "assistant". */
const ROLES = ['user', 'assistant', 'toolResult', 'bashExecution', 'custom', 'hookMessage'].map(
  (role) => ({ role, bytes: Buffer.from(role) }),
);

/** The role written at `bytes[start, end)`: a shared string when it is a known one. */
function knownRole(bytes: Buffer, start: number, end: number): string {
  for (const known of ROLES) {
    if (known.bytes.length === end - start && matchAt(bytes, start, known.bytes)) return known.role;
  }
  return bytes.toString('latin1', start, end);
}

/** One builder for every line: a scan runs to its end before the next begins. */
const PREVIEW = new PreviewBuilder();

function matchAt(bytes: Uint8Array, at: number, pattern: Uint8Array): boolean {
  if (at + pattern.length > bytes.length) return false;
  for (let k = 0; k < pattern.length; k++) if (bytes[at + k] !== pattern[k]) return false;
  return true;
}

/** True when `bytes[start, end)` are the characters of `text` (ASCII). */
function isAsciiAt(bytes: Uint8Array, start: number, end: number, text: string): boolean {
  if (end - start !== text.length) return false;
  for (let k = 0; k < text.length; k++) if (bytes[start + k] !== text.charCodeAt(k)) return false;
  return true;
}

/** End (the closing quote) of a short ASCII string without escapes starting at `at`, or -1. */
function plainEnd(bytes: Uint8Array, at: number): number {
  const max = Math.min(bytes.length, at + 64);
  for (let i = at; i < max; i++) {
    const c = bytes[i]!;
    if (c === QUOTE) return i;
    if (c === BACKSLASH || c < 0x20 || c > 0x7e) return -1;
  }
  return -1;
}

/** Decodes a whole JSON string (tool names and the like), or undefined. */
function jsonString(bytes: Buffer, at: number): string | undefined {
  let i = at;
  while (i < bytes.length) {
    const c = bytes[i];
    if (c === BACKSLASH) i += 2;
    else if (c === QUOTE) break;
    else i++;
  }
  if (i >= bytes.length) return undefined;
  try {
    return JSON.parse(bytes.toString('utf8', at - 1, i + 1)) as string;
  } catch {
    return undefined;
  }
}

/**
 * Pushes every text block from `from` to `end` (joined by white space) until the preview is
 * full. False for malformed bytes.
 */
function pushTextBlocks(
  preview: PreviewBuilder,
  bytes: Buffer,
  from: number,
  end: number,
): boolean {
  // Most often the first block is a text block, right there (after the `[`): no search.
  let at = matchAt(bytes, from, TEXT_BLOCK)
    ? from
    : matchAt(bytes, from + 1, TEXT_BLOCK)
      ? from + 1
      : bytes.indexOf(TEXT_BLOCK, from);
  while (at !== -1 && at < end && !preview.full) {
    preview.space();
    const close = preview.pushJsonString(bytes, at + TEXT_BLOCK.length, end);
    if (close === -2) return false;
    if (close === -1) return true;
    at = bytes.indexOf(TEXT_BLOCK, close);
  }
  return true;
}

/** How far from the end of a line `lastIndexIn` looks before it asks for a full search. */
const NEAR_END = 160;

/**
 * The last `pattern` in `bytes` at or after `start`, or -1. Patterns looked for this way (the
 * stop reason, the error flag) are written near the end of the line: those bytes are compared
 * in place first, which costs less than a call into the native search on every line.
 */
function lastIndexIn(bytes: Buffer, pattern: Buffer, start: number): number {
  const first = pattern[0];
  const near = Math.max(start, bytes.length - NEAR_END);
  for (let at = bytes.length - pattern.length; at >= near; at--) {
    if (bytes[at] === first && matchAt(bytes, at, pattern)) return at;
  }
  const at = near > start ? bytes.lastIndexOf(pattern, near) : -1;
  return at >= start ? at : -1;
}

const TOOL_CALL_ID = Buffer.from(',"toolCallId":"');
const CALL_ID = Buffer.from(',"id":"');

/**
 * The first `key` at or after `at`. pi and Arbor write it right after an id (`idKey` at `at`,
 * then a plain string, then a comma): there it is compared in place, as the id cannot hold it;
 * anywhere else it is searched for.
 */
function keyAfterId(bytes: Buffer, at: number, idKey: Buffer, key: Buffer): number {
  if (matchAt(bytes, at, idKey)) {
    const idEnd = plainEnd(bytes, at + idKey.length);
    if (idEnd !== -1 && bytes[idEnd + 1] === 0x2c && matchAt(bytes, idEnd + 2, key)) {
      return idEnd + 2;
    }
  }
  return bytes.indexOf(key, at);
}

/** The skeleton of the message line `file[lineStart, lineEnd)`, or undefined to parse it. */
export function scanMessageLine(
  file: Buffer,
  lineStart: number,
  lineEnd: number,
  /** The id of the line before (most often the parent): its string is shared, not made again. */
  previousId?: string,
): TreeNode | undefined {
  // Searches run over a view of the line alone, so a miss never scans the rest of the file.
  const bytes = file.subarray(lineStart, lineEnd);
  const end = bytes.length;
  if (end < 64 || !matchAt(bytes, 0, HEAD) || bytes[end - 1] !== 0x7d) return undefined;
  const idEnd = plainEnd(bytes, HEAD.length);
  if (idEnd <= HEAD.length) return undefined;
  let at = idEnd + 1;
  if (!matchAt(bytes, at, PARENT)) return undefined;
  at += PARENT.length;
  let parentId: string | null = null;
  if (bytes[at] === QUOTE) {
    const parentEnd = plainEnd(bytes, at + 1);
    if (parentEnd === -1) return undefined;
    parentId =
      previousId !== undefined && isAsciiAt(bytes, at + 1, parentEnd, previousId)
        ? previousId
        : bytes.toString('latin1', at + 1, parentEnd);
    at = parentEnd + 1;
  } else if (matchAt(bytes, at, NULL)) {
    at += 4;
  } else {
    return undefined;
  }
  if (!matchAt(bytes, at, TIME)) return undefined;
  const timeEnd = plainEnd(bytes, at + TIME.length);
  if (timeEnd === -1) return undefined;
  const timestamp = bytes.toString('latin1', at + TIME.length, timeEnd);
  at = timeEnd + 1;
  if (!matchAt(bytes, at, ROLE)) return undefined;
  const roleEnd = plainEnd(bytes, at + ROLE.length);
  if (roleEnd === -1) return undefined;
  const role = knownRole(bytes, at + ROLE.length, roleEnd);
  const body = roleEnd + 1;

  let toolCalls: number | undefined;
  let isError = false;
  const preview = PREVIEW.reset();
  switch (role) {
    case 'user': {
      if (!matchAt(bytes, body, CONTENT)) return undefined;
      const value = body + CONTENT.length;
      if (bytes[value] === QUOTE) {
        if (preview.pushJsonString(bytes, value + 1, end) === -2) return undefined;
      } else if (bytes[value] === 0x5b) {
        if (!pushTextBlocks(preview, bytes, value, end)) return undefined;
        // An image adds "[image]" to a short preview; let the parser do that rare case.
        if (!preview.full && bytes.indexOf(IMAGE_BLOCK, value) !== -1) return undefined;
      } else {
        return undefined;
      }
      break;
    }
    case 'assistant': {
      const stop = lastIndexIn(bytes, STOP_REASON, body);
      if (stop === -1) return undefined;
      const stopEnd = plainEnd(bytes, stop + STOP_REASON.length);
      if (stopEnd === -1) return undefined;
      // A stop reason Arbor does not write (pi 1.6's "deferred", say) is left to the full parse.
      const reasonAt = stop + STOP_REASON.length;
      if (!STOP_REASONS.some((r) => isAsciiAt(bytes, reasonAt, stopEnd, r))) return undefined;
      const names: string[] = [];
      let call = bytes.indexOf(TOOL_CALL, body);
      while (call !== -1 && call < stop) {
        const nameAt = keyAfterId(bytes, call + TOOL_CALL.length, CALL_ID, NAME);
        const name = nameAt === -1 ? undefined : jsonString(bytes, nameAt + NAME.length);
        if (name === undefined) return undefined;
        names.push(name);
        call = bytes.indexOf(TOOL_CALL, call + TOOL_CALL.length);
      }
      if (!pushTextBlocks(preview, bytes, body, stop)) return undefined;
      if (preview.empty && names.length > 0) {
        preview.pushString(names.map((n) => `→ ${n}`).join(' '));
      }
      if (preview.empty) {
        const error = lastIndexIn(bytes, ERROR_MESSAGE, body);
        if (
          error !== -1 &&
          preview.pushJsonString(bytes, error + ERROR_MESSAGE.length, end) === -2
        ) {
          return undefined;
        }
      }
      toolCalls = names.length;
      const reason = stop + STOP_REASON.length;
      if (
        isAsciiAt(bytes, reason, stopEnd, 'error') ||
        isAsciiAt(bytes, reason, stopEnd, 'aborted')
      ) {
        isError = true;
      }
      break;
    }
    case 'toolResult': {
      const nameAt = keyAfterId(bytes, body, TOOL_CALL_ID, TOOL_NAME);
      const flag = lastIndexIn(bytes, IS_ERROR, body);
      if (nameAt === -1 || flag === -1) return undefined;
      const toolName = jsonString(bytes, nameAt + TOOL_NAME.length);
      if (toolName === undefined) return undefined;
      preview.pushString(`${toolName}: `);
      // The content most often follows a plain tool name: its blocks are looked for from there.
      const nameEnd = plainEnd(bytes, nameAt + TOOL_NAME.length);
      const blocksFrom =
        nameEnd !== -1 && matchAt(bytes, nameEnd + 1, CONTENT)
          ? nameEnd + 1 + CONTENT.length
          : nameAt;
      if (!pushTextBlocks(preview, bytes, blocksFrom, flag)) return undefined;
      if (!preview.full && bytes.indexOf(IMAGE_BLOCK, nameAt) !== -1) return undefined;
      if (matchAt(bytes, flag + IS_ERROR.length, TRUE)) isError = true;
      break;
    }
    case 'bashExecution': {
      const commandAt = bytes.indexOf(COMMAND, body);
      if (commandAt === -1) return undefined;
      preview.pushString('$ ');
      if (preview.pushJsonString(bytes, commandAt + COMMAND.length, end) === -2) return undefined;
      break;
    }
    default:
      return undefined;
  }
  // The node is made whole at once (one object shape per kind, no property added later), with
  // the keys in the order nodeOfEntry gives them.
  const id = bytes.toString('latin1', HEAD.length, idEnd);
  const text = preview.toString();
  const type = 'message';
  if (toolCalls === undefined) {
    return isError
      ? { id, parentId, type, role, preview: text, timestamp, isError }
      : { id, parentId, type, role, preview: text, timestamp };
  }
  return isError
    ? { id, parentId, type, role, preview: text, timestamp, toolCalls, isError }
    : { id, parentId, type, role, preview: text, timestamp, toolCalls };
}
