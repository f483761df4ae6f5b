// One message line as pi and Arbor write it (`{"type":"message","id":…,"parentId":…,
// "timestamp":…,"message":{"role":…`), read without building it: the byte ranges of the id, the
// parent and the timestamp, the role, the tool calls, the error flag and the preview. The whole
// line is walked as JSON (json-walk.ts): a key is read only in the object it belongs to, and a
// key the node depends on that occurs twice in its object leaves the line to the parse (which
// keeps the last, as pi's JSON.parse does). So the result is `nodeOfEntry(JSON.parse(line))` or
// nothing; anything unexpected (another key order for the envelope, an unknown role or stop
// reason, white space between tokens, images in a short preview) is left to the caller's parse.
import { plainEnd, QUOTE } from './json-string';
// AssemblyScript has no `import type`; Members is a type here (its instances are static memory).
// eslint-disable-next-line @typescript-eslint/consistent-type-imports
import { Members, peek, skipString } from './json-walk';
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
  space,
  STOPPED_FULL,
} from './preview';
import { byteAt, isAt, lineEnd, matchAt } from './search';

const HEAD = '{"type":"message","id":"';
const PARENT = ',"parentId":';
const TIME = ',"timestamp":"';
const ROLE = ',"message":{"role":"';
const NULL = 'null';

const USER = 1;
const ASSISTANT = 2;
const TOOL_RESULT = 3;
const BASH = 4;

// The blocks of `content` the preview may need, in order: kind and the address of the text (or
// the tool's name) after its opening quote. Past MAX_BLOCKS, a preview not yet full goes to the
// parse.
const TEXT = 1;
const TOOL_CALL = 2;
const OTHER = 3;
const MAX_BLOCKS = 64;
const blocks = memory.data(MAX_BLOCKS * 8);
let blockCount = 0;
/** Blocks seen in all (recorded or not), tool calls and blocks that are neither text nor calls. */
let seenBlocks = 0;
let toolCalls = 0;
let otherBlocks = 0;

// The walkers of the three levels read, each in a static segment of its own.
const entry = changetype<Members>(memory.data(offsetof<Members>()));
const message = changetype<Members>(memory.data(offsetof<Members>()));
const block = changetype<Members>(memory.data(offsetof<Members>()));

/** Depth of a message's members: the entry's object and the message's own. */
const MESSAGE_DEPTH = 2;
/** Depth of a block's members: entry, message, content array, block. */
const BLOCK_DEPTH = 4;

/** The first byte after the opening quote of the string at `p`, or 0 when `p` holds no string. */
function stringAt(p: usize): usize {
  return peek(p) == QUOTE ? p + 1 : 0;
}

/** Reads one block of `content` at `p` into the table; its end, or 0 to leave the line to the parse. */
function readBlock(p: usize): usize {
  block.open(p);
  let kind = 0;
  let text: usize = 0;
  let name: usize = 0;
  while (block.next()) {
    if (block.escaped) return 0;
    if (block.is('type')) {
      if (kind != 0) return 0;
      const at = stringAt(block.value);
      const close = at == 0 ? 0 : plainEnd(at);
      if (close == 0) return 0;
      kind = isAt(at, close, 'text') ? TEXT : isAt(at, close, 'toolCall') ? TOOL_CALL : OTHER;
      block.valueRead(close + 1);
    } else if (block.is('text') || block.is('name')) {
      const isText = block.is('text');
      if ((isText ? text : name) != 0) return 0;
      const at = stringAt(block.value);
      if (at == 0) return 0;
      if (isText) text = at;
      else name = at;
      block.valueRead(skipString(block.value));
    } else {
      block.skip(BLOCK_DEPTH);
    }
  }
  if (block.failed || kind == 0) return 0;
  seenBlocks++;
  let address: usize = 0;
  if (kind == TEXT) {
    if (text == 0) return 0;
    address = text;
  } else if (kind == TOOL_CALL) {
    if (name == 0) return 0;
    address = name;
    toolCalls++;
  } else {
    otherBlocks++;
  }
  if (blockCount < MAX_BLOCKS) {
    const slot = blocks + <usize>(blockCount * 8);
    store<u32>(slot, kind);
    store<u32>(slot + 4, <u32>address);
    blockCount++;
  }
  return block.end;
}

/** Reads the `content` array at `p`; its end, or 0. */
function readBlocks(p: usize): usize {
  if (peek(p) != 0x5b) return 0;
  let i = p + 1;
  if (peek(i) == 0x5d) return i + 1;
  while (true) {
    i = readBlock(i);
    if (i == 0) return 0;
    const c = peek(i);
    if (c == 0x5d) return i + 1;
    if (c != 0x2c) return 0;
    i++;
  }
}

/** Pushes the recorded blocks of `kind` (texts, or tool names as "→ a → b"); false if unreadable. */
function pushBlocks(kind: u32): bool {
  for (let k = 0; k < blockCount && !full(); k++) {
    const slot = blocks + <usize>(k * 8);
    if (load<u32>(slot) != kind) continue;
    space();
    if (kind == TOOL_CALL) {
      push(0x2192);
      space();
    }
    const close = pushJsonString(<usize>load<u32>(slot + 4), lineEnd);
    if (close == MALFORMED) return false;
    if (close == STOPPED_FULL) return true;
  }
  // A preview not full yet would need blocks past the table.
  return full() || seenBlocks == blockCount;
}

/** Pushes the JSON string whose first byte is `at` (0: none); false if unreadable. */
function pushString(at: usize): bool {
  return at == 0 || pushJsonString(at, lineEnd) != MALFORMED;
}

/** The role named by `[at, end)`, or 0 for one the scan leaves to the parse. */
function roleOf(at: usize, end: usize): i32 {
  if (isAt(at, end, 'user')) return USER;
  if (isAt(at, end, 'assistant')) return ASSISTANT;
  if (isAt(at, end, 'toolResult')) return TOOL_RESULT;
  if (isAt(at, end, 'bashExecution')) return BASH;
  return 0;
}

/**
 * Fills the row (and the preview, started by the caller) of the message line `[start, lineEnd)`;
 * false to leave the line to the parse.
 */
export function scanMessage(start: usize): bool {
  const end = lineEnd;
  if (!matchAt(start, HEAD) || byteAt(end - 1) != 0x7d) return false;
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
  const role = roleOf(roleAt, roleEnd);
  if (role == 0) return false;

  // The message's other members: each key the node reads at most once.
  blockCount = 0;
  seenBlocks = 0;
  toolCalls = 0;
  otherBlocks = 0;
  let content: usize = 0;
  let contentText: usize = 0; // a user's content given as one string
  let stopAt: usize = 0;
  let stopEnd: usize = 0;
  let errorText: usize = 0;
  let toolName: usize = 0;
  let command: usize = 0;
  let isError = -1;
  message.resume(roleEnd + 1);
  while (message.next()) {
    if (message.escaped) return false;
    const value = message.value;
    if (message.is('role')) return false;
    if (role != BASH && message.is('content')) {
      if (content != 0) return false;
      content = value;
      if (peek(value) == QUOTE && role != ASSISTANT) {
        contentText = value + 1;
        message.valueRead(skipString(value));
      } else {
        message.valueRead(readBlocks(value));
      }
    } else if (role == ASSISTANT && message.is('stopReason')) {
      if (stopAt != 0) return false;
      stopAt = stringAt(value);
      stopEnd = stopAt == 0 ? 0 : plainEnd(stopAt);
      if (stopEnd == 0) return false;
      message.valueRead(stopEnd + 1);
    } else if (
      (role == ASSISTANT && message.is('errorMessage')) ||
      (role == TOOL_RESULT && message.is('toolName')) ||
      (role == BASH && message.is('command'))
    ) {
      const text = stringAt(value);
      if (text == 0) return false;
      const slot = role == ASSISTANT ? errorText : role == TOOL_RESULT ? toolName : command;
      if (slot != 0) return false;
      if (role == ASSISTANT) errorText = text;
      else if (role == TOOL_RESULT) toolName = text;
      else command = text;
      message.valueRead(skipString(value));
    } else if (role == TOOL_RESULT && message.is('isError')) {
      if (isError >= 0) return false;
      if (matchAt(value, 'true')) isError = 1;
      else if (matchAt(value, 'false')) isError = 0;
      else return false;
      message.valueRead(value + (isError == 1 ? 4 : 5));
    } else {
      message.skip(MESSAGE_DEPTH);
    }
  }
  if (message.failed) return false;

  // The entry's members after the message: none of the envelope's again, then the line's end.
  entry.resume(message.end);
  while (entry.next()) {
    if (
      entry.escaped ||
      entry.is('type') ||
      entry.is('id') ||
      entry.is('parentId') ||
      entry.is('timestamp') ||
      entry.is('message')
    ) {
      return false;
    }
    entry.skip(1);
  }
  if (entry.failed || entry.end != end) return false;

  // The preview, in the order nodeOfEntry builds it.
  let calls = -1;
  let error = 0;
  if (role == USER) {
    if (content == 0) return false;
    if (contentText != 0) {
      if (!pushString(contentText)) return false;
    } else if (!pushBlocks(TEXT)) {
      return false;
    }
    // An image adds "[image]" to a short preview; the parse does that rare case.
    if (!full() && (toolCalls > 0 || otherBlocks > 0)) return false;
  } else if (role == ASSISTANT) {
    if (content == 0 || contentText != 0 || stopAt == 0) return false;
    // A stop reason Arbor does not write (pi 1.6's "deferred", say) is left to the parse.
    const known =
      isAt(stopAt, stopEnd, 'stop') ||
      isAt(stopAt, stopEnd, 'length') ||
      isAt(stopAt, stopEnd, 'toolUse') ||
      isAt(stopAt, stopEnd, 'error') ||
      isAt(stopAt, stopEnd, 'aborted');
    if (!known) return false;
    if (!pushBlocks(TEXT)) return false;
    if (previewLength() == 0 && toolCalls > 0 && !pushBlocks(TOOL_CALL)) return false;
    if (previewLength() == 0 && !pushString(errorText)) return false;
    calls = toolCalls;
    if (isAt(stopAt, stopEnd, 'error') || isAt(stopAt, stopEnd, 'aborted')) error = 1;
  } else if (role == TOOL_RESULT) {
    if (toolName == 0 || content == 0) return false;
    if (pushJsonString(toolName, end) == MALFORMED) return false;
    pushAscii(': ');
    if (contentText != 0) {
      if (!pushString(contentText)) return false;
    } else if (!pushBlocks(TEXT)) {
      return false;
    }
    if (!full() && (toolCalls > 0 || otherBlocks > 0)) return false;
    if (isError == 1) error = 1;
  } else {
    if (command == 0) return false;
    pushAscii('$ ');
    if (!pushString(command)) return false;
  }
  set(F_ID, rel(idAt));
  set(F_ID_END, rel(idEnd));
  set(F_TIME, rel(timeAt));
  set(F_TIME_END, rel(timeEnd));
  set(F_ROLE, role);
  set(F_TOOL_CALLS, calls);
  set(F_ERROR, error);
  set(F_PREVIEW_LENGTH, endPreview());
  return true;
}
