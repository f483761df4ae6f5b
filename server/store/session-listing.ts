import fs from 'node:fs';
import path from 'node:path';
import { SessionHeaderSchema } from '../../shared/session-entries.js';
import { MessageEntrySchema, SessionInfoEntrySchema } from '../../shared/session-entries.js';
import { contentText } from '../../shared/messages.js';
import { openRegularFile } from './regular-file.js';

/*
 * Session lists without parsing sessions. Each file is streamed as bytes; only the header, the
 * first user message and session_info lines are parsed (they are small and few). Message lines
 * are counted by their prefix, `{"type":"message"`, which is how pi and Arbor write them; a line
 * written otherwise (keys in another order, spaces: an imported hand-made file) is parsed. A file
 * seen before is only read from where the last listing stopped, since session files only grow.
 *
 * Differences from pi's listing, on purpose: `modified` is the latest entry timestamp of a
 * message line (pi takes the latest user/assistant `message.timestamp`, which needs every body).
 */

export interface SessionInfo {
  file: string;
  id: string;
  cwd: string;
  name?: string;
  firstMessage: string;
  created: string;
  modified: string;
  messageCount: number;
  parentSession?: string;
}

interface ScanState {
  size: number;
  mtimeMs: number;
  headerLine: string;
  messageCount: number;
  firstMessage?: string;
  name?: string;
  latestMessageTime?: string;
}

const cache = new Map<string, ScanState>();

const CHUNK = 1 << 20;
/** Lines longer than this are not parsed for the first message or a name (counted only). */
const MAX_PARSED_LINE = 8 << 20;
const PREFIX_BYTES = 160;
const MESSAGE_PREFIX = Buffer.from('{"type":"message"');
const INFO_PREFIX = Buffer.from('{"type":"session_info"');
const USER_ROLE = Buffer.from('"message":{"role":"user"');
/** How every line pi and Arbor write begins; other lines (hand-written JSON) are parsed whole. */
const TYPE_PREFIX = Buffer.from('{"type":"');
const ENTRY_TIME = /"timestamp":"([^"]+)"/;

function startsWith(buffer: Buffer, prefix: Buffer): boolean {
  return (
    buffer.length >= prefix.length &&
    buffer.compare(prefix, 0, prefix.length, 0, prefix.length) === 0
  );
}

/** Folds one complete line into the state. `full` is absent when the line was too long to keep. */
function scanLine(state: ScanState, prefix: Buffer, full: Buffer | undefined): void {
  if (!startsWith(prefix, TYPE_PREFIX)) {
    if (full) scanIrregularLine(state, full);
    return;
  }
  if (startsWith(prefix, MESSAGE_PREFIX)) {
    state.messageCount++;
    const time = ENTRY_TIME.exec(prefix.toString('latin1'))?.[1];
    if (time && (!state.latestMessageTime || time > state.latestMessageTime)) {
      state.latestMessageTime = time;
    }
    if (state.firstMessage === undefined && full) {
      const parsed = safeJson(full, MessageEntrySchema);
      if (parsed?.message.role === 'user') {
        const text = contentText(parsed.message.content);
        if (text) state.firstMessage = text;
      }
    }
  } else if (startsWith(prefix, INFO_PREFIX) && full) {
    const parsed = safeJson(full, SessionInfoEntrySchema);
    if (parsed) state.name = parsed.name?.trim() || undefined;
  }
}

/** A line not written the way pi writes (other key order, spaces): judged by its parsed value. */
function scanIrregularLine(state: ScanState, line: Buffer): void {
  let value: unknown;
  try {
    value = JSON.parse(line.toString('utf8'));
  } catch {
    return;
  }
  const message = MessageEntrySchema.safeParse(value);
  if (message.success) {
    state.messageCount++;
    const time = message.data.timestamp;
    if (!state.latestMessageTime || time > state.latestMessageTime) state.latestMessageTime = time;
    if (state.firstMessage === undefined && message.data.message.role === 'user') {
      const text = contentText(message.data.message.content);
      if (text) state.firstMessage = text;
    }
    return;
  }
  const info = SessionInfoEntrySchema.safeParse(value);
  if (info.success) state.name = info.data.name?.trim() || undefined;
}

function safeJson<T>(
  bytes: Buffer,
  schema: { safeParse(v: unknown): { success: boolean; data?: T } },
): T | undefined {
  try {
    const result = schema.safeParse(JSON.parse(bytes.toString('utf8')));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}

/** Whether a line, judged by its first bytes, must be parsed whole. */
function needsWholeLine(state: ScanState, prefix: Buffer): boolean {
  if (startsWith(prefix, INFO_PREFIX) || !startsWith(prefix, TYPE_PREFIX)) return true;
  return (
    state.firstMessage === undefined &&
    startsWith(prefix, MESSAGE_PREFIX) &&
    prefix.includes(USER_ROLE)
  );
}

/**
 * Streams `file` from `from` to its end, folding complete lines into `state`; returns the offset
 * after the last complete line. Only a line's first bytes are kept unless it must be parsed.
 */
async function scanFrom(file: string, from: number, state: ScanState): Promise<number> {
  const handle = await openRegularFile(file);
  try {
    const buffer = Buffer.allocUnsafe(CHUNK);
    let position = from;
    let consumed = from;
    let parts: Buffer[] = [];
    let length = 0;
    let whole: boolean | undefined;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, CHUNK, position);
      if (bytesRead === 0) break;
      let start = 0;
      while (start < bytesRead) {
        const newline = buffer.indexOf(0x0a, start);
        const complete = newline !== -1 && newline < bytesRead;
        const end = complete ? newline : bytesRead;
        const piece = buffer.subarray(start, end);
        if (whole !== false) parts.push(Buffer.from(piece));
        else if (length < PREFIX_BYTES)
          parts.push(Buffer.from(piece.subarray(0, PREFIX_BYTES - length)));
        length += piece.length;
        if (whole === undefined && length >= PREFIX_BYTES) {
          const prefix = Buffer.concat(parts).subarray(0, PREFIX_BYTES);
          whole = needsWholeLine(state, prefix);
          if (!whole) parts = [Buffer.from(prefix)];
        }
        if (whole && length > MAX_PARSED_LINE) {
          whole = false;
          parts = [Buffer.from(Buffer.concat(parts).subarray(0, PREFIX_BYTES))];
        }
        if (!complete) break;
        const line = Buffer.concat(parts);
        const prefix = line.subarray(0, PREFIX_BYTES);
        const parse = whole ?? needsWholeLine(state, prefix);
        scanLine(state, prefix, parse ? line : undefined);
        consumed = position + end + 1;
        parts = [];
        length = 0;
        whole = undefined;
        start = end + 1;
      }
      position += bytesRead;
    }
    return consumed;
  } finally {
    await handle.close();
  }
}

async function readFirstLine(file: string): Promise<string | undefined> {
  const handle = await openRegularFile(file);
  try {
    const buffer = Buffer.alloc(64 * 1024);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const newline = buffer.indexOf(0x0a);
    if (newline === -1 || newline >= bytesRead) return undefined;
    return buffer.toString('utf8', 0, newline);
  } finally {
    await handle.close();
  }
}

/** The listing entry of one file, or undefined when it is not a session file. */
export async function sessionInfoOf(file: string): Promise<SessionInfo | undefined> {
  try {
    const stat = await fs.promises.stat(file);
    const headerLine = await readFirstLine(file);
    if (headerLine === undefined) return undefined;
    const header = SessionHeaderSchema.safeParse(JSON.parse(headerLine));
    if (!header.success) return undefined;
    let state = cache.get(file);
    if (state && state.headerLine === headerLine && state.size <= stat.size) {
      if (state.size < stat.size || state.mtimeMs !== stat.mtimeMs) {
        state = { ...state, mtimeMs: stat.mtimeMs };
        state.size = await scanFrom(file, state.size, state);
      }
    } else {
      state = { size: 0, mtimeMs: stat.mtimeMs, headerLine, messageCount: 0 };
      state.size = await scanFrom(file, Buffer.byteLength(headerLine) + 1, state);
    }
    cache.set(file, state);
    const h = header.data;
    const info: SessionInfo = {
      file,
      id: h.id,
      cwd: h.cwd ?? '',
      firstMessage: state.firstMessage ?? '(no messages)',
      created: h.timestamp,
      modified: state.latestMessageTime ?? h.timestamp ?? stat.mtime.toISOString(),
      messageCount: state.messageCount,
    };
    if (state.name !== undefined) info.name = state.name;
    if (h.parentSession !== undefined) info.parentSession = h.parentSession;
    return info;
  } catch {
    return undefined;
  }
}

function newestFirst(a: SessionInfo, b: SessionInfo): number {
  return new Date(b.modified).getTime() - new Date(a.modified).getTime();
}

/** Sessions in one directory, newest first. A missing directory has none. */
export async function listSessions(sessionDir: string): Promise<SessionInfo[]> {
  let names: string[];
  try {
    names = await fs.promises.readdir(sessionDir);
  } catch {
    return [];
  }
  const infos = await Promise.all(
    names
      .filter((name) => name.endsWith('.jsonl'))
      .map((name) => sessionInfoOf(path.join(sessionDir, name))),
  );
  return infos.filter((info): info is SessionInfo => info !== undefined).sort(newestFirst);
}
