import fs from 'node:fs';
import path from 'node:path';
import type { SessionHeader } from '../../shared/session-entries.js';
import { acquireLock, type FileLock } from './file-lock.js';
import { sessionFileName } from './session-paths.js';
import { fsyncDirectory, SessionWriter } from './session-writer.js';

/**
 * Creates `<dir>/<timestamp>_<id>.jsonl` for `header` under its lock, with `content` (the header
 * line and any entries) written in one go and fsynced together with the directory. The caller
 * owns the lock and the writer (open for appending) and releases them on failure of its own.
 */
export function createSessionFile(
  dir: string,
  header: SessionHeader,
  content: string,
): { file: string; lock: FileLock; writer: SessionWriter } {
  const resolved = path.resolve(dir);
  fs.mkdirSync(resolved, { recursive: true });
  const file = path.join(resolved, sessionFileName(header.timestamp, header.id));
  const lock = acquireLock(file);
  try {
    const writer = SessionWriter.create(file, content);
    fsyncDirectory(resolved);
    return { file, lock, writer };
  } catch (error) {
    lock.release();
    throw error;
  }
}
