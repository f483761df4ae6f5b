import type { TreeNode } from '../../shared/session-entries.js';
import { collapseWhiteSpace, makePreview, PREVIEW_LENGTH } from './tree-node.js';

/*
 * The skeleton of a large `message` line without JSON.parse. pi and Arbor write message entries
 * as `{"type":"message","id":…,"parentId":…,"timestamp":…,"message":{"role":…`; for that key
 * order this reads the envelope from the first bytes and the preview from the first text block,
 * skipping the rest of the line (tool outputs, thinking, images are most of a session's bytes).
 * Anything unexpected returns undefined and the caller parses the line. The body is validated
 * by the schema when it is read.
 *
 * It relies on one property of JSON: a `"` inside a string is always escaped, so a pattern such
 * as `{"type":"text","text":"` found in the raw bytes is structure, not string content.
 */

const HEAD = Buffer.from('{"type":"message","id":"');
const PARENT = Buffer.from(',"parentId":');
const TIME = Buffer.from(',"timestamp":"');
const ROLE = Buffer.from(',"message":{"role":"');
const TEXT_BLOCK = Buffer.from('{"type":"text","text":"');
const IMAGE_BLOCK = Buffer.from('{"type":"image"');
const TOOL_CALL = Buffer.from('{"type":"toolCall"');
const NAME = Buffer.from('"name":"');
const TOOL_NAME = Buffer.from('"toolName":"');
const COMMAND = Buffer.from('"command":"');
const STOP_REASON = Buffer.from('"stopReason":"');
const ERROR_MESSAGE = Buffer.from('"errorMessage":"');
const IS_ERROR_TRUE = Buffer.from('"isError":true');
const IS_ERROR = Buffer.from('"isError":');
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

function matchAt(bytes: Buffer, at: number, pattern: Buffer): boolean {
  return bytes.compare(pattern, 0, pattern.length, at, at + pattern.length) === 0;
}

/** A short string with no escapes (ids, timestamps, roles) starting at `at`; end is the quote. */
function plainString(
  bytes: Buffer,
  at: number,
  limit: number,
): { value: string; end: number } | undefined {
  const max = Math.min(limit, at + 64);
  for (let i = at; i < max; i++) {
    const c = bytes[i];
    if (c === QUOTE) return { value: bytes.toString('latin1', at, i), end: i };
    if (c === BACKSLASH || c === undefined || c < 0x20 || c > 0x7e) return undefined;
  }
  return undefined;
}

/**
 * Decodes the start of the JSON string whose first character is at `at`, enough of it that a
 * collapsed preview of `need` characters is exact: the whole string when it is short.
 */
function stringPrefix(bytes: Buffer, at: number, limit: number, need: number): string | undefined {
  let window = 256;
  for (;;) {
    const stop = Math.min(limit, at + window);
    let i = at;
    let closed = false;
    while (i < stop) {
      const c = bytes[i];
      if (c === BACKSLASH) {
        i += 2;
        continue;
      }
      if (c === QUOTE) {
        closed = true;
        break;
      }
      i++;
    }
    let raw = bytes.toString('utf8', at, Math.min(i, stop));
    if (!closed) {
      // Drop a cut escape sequence and a cut multi-byte character at the end.
      raw = raw.replace(/\uFFFD+$/, '');
      const escape = /(\\+)(u[0-9a-fA-F]{0,3})?$/.exec(raw);
      if (escape && escape[1]!.length % 2 === 1)
        raw = raw.slice(0, escape.index + escape[1]!.length - 1);
    }
    let value: string;
    try {
      value = JSON.parse(`"${raw}"`) as string;
    } catch {
      return undefined;
    }
    if (closed || stop >= limit) return closed ? value : undefined;
    if (collapseWhiteSpace(value, need + 1).length > need) return value;
    window *= 4;
  }
}

/** Text of every text block from `from`, joined by `separator`, enough for a preview. */
function textBlocks(
  bytes: Buffer,
  from: number,
  end: number,
  separator: string,
): string | undefined {
  let text = '';
  let at = bytes.indexOf(TEXT_BLOCK, from);
  while (at !== -1 && at < end) {
    const start = at + TEXT_BLOCK.length;
    const part = stringPrefix(bytes, start, end, PREVIEW_LENGTH + 1);
    if (part === undefined) return undefined;
    if (part) text += (text ? separator : '') + part;
    if (collapseWhiteSpace(text, PREVIEW_LENGTH + 1).length > PREVIEW_LENGTH) break;
    at = bytes.indexOf(TEXT_BLOCK, start);
  }
  return text;
}

function lastIndexIn(bytes: Buffer, pattern: Buffer, start: number, end: number): number {
  const at = bytes.lastIndexOf(pattern, end - pattern.length);
  return at >= start ? at : -1;
}

/** The skeleton of the message line `bytes[start, end)`, or undefined to ask for a full parse. */
export function scanMessageLine(
  file: Buffer,
  lineStart: number,
  lineEnd: number,
): TreeNode | undefined {
  // Searches run over a view of the line alone, so a miss never scans the rest of the file.
  const bytes = file.subarray(lineStart, lineEnd);
  const start = 0;
  const end = bytes.length;
  if (end - start < 64 || !matchAt(bytes, start, HEAD) || bytes[end - 1] !== 0x7d) return undefined;
  const id = plainString(bytes, start + HEAD.length, end);
  if (!id || id.value.length === 0) return undefined;
  let at = id.end + 1;
  if (!matchAt(bytes, at, PARENT)) return undefined;
  at += PARENT.length;
  let parentId: string | null;
  if (bytes[at] === QUOTE) {
    const parent = plainString(bytes, at + 1, end);
    if (!parent) return undefined;
    parentId = parent.value;
    at = parent.end + 1;
  } else if (bytes.toString('latin1', at, at + 4) === 'null') {
    parentId = null;
    at += 4;
  } else {
    return undefined;
  }
  if (!matchAt(bytes, at, TIME)) return undefined;
  const time = plainString(bytes, at + TIME.length, end);
  if (!time) return undefined;
  at = time.end + 1;
  if (!matchAt(bytes, at, ROLE)) return undefined;
  const role = plainString(bytes, at + ROLE.length, end);
  if (!role) return undefined;
  const body = role.end + 1;

  const node: TreeNode = {
    id: id.value,
    parentId,
    type: 'message',
    role: role.value,
    preview: '',
    timestamp: time.value,
  };
  switch (role.value) {
    case 'user': {
      if (bytes[body] !== 0x2c) return undefined;
      if (bytes.indexOf(IMAGE_BLOCK, body) !== -1) return undefined;
      const contentKey = '"content":';
      if (bytes.toString('latin1', body + 1, body + 1 + contentKey.length) !== contentKey)
        return undefined;
      const value = body + 1 + contentKey.length;
      let text: string | undefined;
      if (bytes[value] === QUOTE) text = stringPrefix(bytes, value + 1, end, PREVIEW_LENGTH + 1);
      else if (bytes[value] === 0x5b) text = textBlocks(bytes, value, end, ' ');
      if (text === undefined) return undefined;
      node.preview = makePreview(text);
      return node;
    }
    case 'assistant': {
      const stop = lastIndexIn(bytes, STOP_REASON, body, end);
      if (stop === -1) return undefined;
      const stopReason = plainString(bytes, stop + STOP_REASON.length, end)?.value;
      const names: string[] = [];
      let call = bytes.indexOf(TOOL_CALL, body);
      while (call !== -1 && call < stop) {
        const nameAt = bytes.indexOf(NAME, call);
        const name =
          nameAt === -1 ? undefined : stringPrefix(bytes, nameAt + NAME.length, end, 200);
        if (name === undefined) return undefined;
        names.push(name);
        call = bytes.indexOf(TOOL_CALL, call + TOOL_CALL.length);
      }
      let text = textBlocks(bytes, body, stop, ' ');
      if (text === undefined) return undefined;
      if (!text && names.length > 0) text = names.map((n) => `→ ${n}`).join(' ');
      if (!text) {
        const error = lastIndexIn(bytes, ERROR_MESSAGE, body, end);
        if (error !== -1)
          text = stringPrefix(bytes, error + ERROR_MESSAGE.length, end, PREVIEW_LENGTH + 1) ?? '';
      }
      node.preview = makePreview(text);
      node.toolCalls = names.length;
      if (stopReason === 'error' || stopReason === 'aborted') node.isError = true;
      return node;
    }
    case 'toolResult': {
      if (bytes.indexOf(IMAGE_BLOCK, body) !== -1) return undefined;
      const nameAt = bytes.indexOf(TOOL_NAME, body);
      if (nameAt === -1) return undefined;
      const toolName = stringPrefix(bytes, nameAt + TOOL_NAME.length, end, 200);
      const flag = lastIndexIn(bytes, IS_ERROR, body, end);
      if (toolName === undefined || flag === -1) return undefined;
      const text = textBlocks(bytes, nameAt, flag, ' ');
      if (text === undefined) return undefined;
      node.preview = makePreview(`${toolName}: ${text}`);
      if (matchAt(bytes, flag, IS_ERROR_TRUE)) node.isError = true;
      return node;
    }
    case 'bashExecution': {
      const commandAt = bytes.indexOf(COMMAND, body);
      if (commandAt === -1) return undefined;
      const command = stringPrefix(bytes, commandAt + COMMAND.length, end, PREVIEW_LENGTH + 1);
      if (command === undefined) return undefined;
      node.preview = makePreview(`$ ${command}`);
      return node;
    }
    default:
      return undefined;
  }
}
