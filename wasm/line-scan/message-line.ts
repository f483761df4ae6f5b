// One message line as pi and Arbor write it (`{"type":"message","id":…,"parentId":…,
// "timestamp":…,"message":{"role":…`), read without parsing it: the byte ranges of the id, the
// parent and the timestamp, the role, the tool calls, the error flag and the preview. Anything
// unexpected is left to the caller's JSON.parse. It relies on one property of JSON: a `"` inside a
// string is always escaped, so a pattern such as `{"type":"text","text":"` found in the raw bytes
// is structure, not string content.
import { nameEnd, plainEnd, QUOTE } from './json-string';
import {
  F_ERROR,
  F_ID,
  F_ID_END,
  F_PARENT,
  F_PARENT_END,
  F_PREVIEW_LENGTH,
  F_ROLE,
  F_TIME,
  F_TIME_END,
  F_TOOL_CALLS,
  rel,
  set,
} from './layout';
import {
  endPreview,
  full,
  MALFORMED,
  previewLength,
  push,
  pushAscii,
  pushJsonString,
  pushTextBlocks,
  space,
} from './preview';
import { byteAt, indexOf, isAt, lastIndexOf, lineEnd, matchAt } from './search';

const HEAD = '{"type":"message","id":"';
const PARENT = ',"parentId":';
const TIME = ',"timestamp":"';
const ROLE = ',"message":{"role":"';
const CONTENT = ',"content":';
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

/**
 * Fills the row (and the preview, started by the caller) of the message line `[start, lineEnd)`;
 * false to leave the line to the parse.
 */
export function scanMessage(start: usize): bool {
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
    if (previewLength() == 0 && calls > 0) {
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
    if (previewLength() == 0) {
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
  set(F_ID, rel(idAt));
  set(F_ID_END, rel(idEnd));
  set(F_TIME, rel(timeAt));
  set(F_TIME_END, rel(timeEnd));
  set(F_ROLE, role);
  set(F_TOOL_CALLS, toolCalls);
  set(F_ERROR, isError);
  set(F_PREVIEW_LENGTH, endPreview());
  return true;
}
