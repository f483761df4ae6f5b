import fs from 'node:fs';
import path from 'node:path';
import type { SessionHeader } from '../../shared/session-entries.js';
import { acquireLock, type FileLock } from './file-lock.js';
import { sessionFileName } from './session-paths.js';
import { fsyncDirectory, SessionWriter } from './session-writer.js';

/**
 * Creates `<dir>/<timestamp>_<id>.jsonl` for `header` under its lock, with `content` (the header
 * line and any entries) written in one go and fsynced together with the directory. With `durable`
 * false the fsyncs are left to the caller: a file that holds only a header carries nothing a
 * crash could lose, and its first turn's background sync (which also syncs the directory) makes it
 * durable without stalling the event loop when a session starts. The caller owns the lock and the
 * writer (open for appending) and releases them on failure of its own.
 */
export function createSessionFile(
  dir: string,
  header: SessionHeader,
  content: string,
  durable = true,
): { file: string; lock: FileLock; writer: SessionWriter } {
  const resolved = path.resolve(dir);
  fs.mkdirSync(resolved, { recursive: true });
  const file = path.join(resolved, sessionFileName(header.timestamp, header.id));
  const lock = acquireLock(file);
  try {
    const writer = SessionWriter.create(file, content, durable);
    if (durable) fsyncDirectory(resolved);
    return { file, lock, writer };
  } catch (error) {
    lock.release();
    throw error;
  }
}
