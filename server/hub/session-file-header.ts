import fs from 'node:fs';
import { SessionHeaderSchema } from '../../shared/session-entries.js';

/*
 * The id and working directory a session file's header names, for telling apart the sessions of
 * several working directories in one shared folder (pi's `sessionDir`). As pi, the header is the
 * first line, found within the first MiB.
 */

const CHUNK = 64 * 1024;
const MAX_HEADER_BYTES = 1 << 20;

export interface SessionHeaderFacts {
  id: string;
  /** The header's `cwd`; undefined when it has none. */
  cwd: string | undefined;
}

function firstLine(file: string): string | undefined {
  const fd = fs.openSync(file, 'r');
  try {
    const parts: Buffer[] = [];
    let length = 0;
    const buffer = Buffer.allocUnsafe(CHUNK);
    while (length < MAX_HEADER_BYTES) {
      const bytesRead = fs.readSync(fd, buffer, 0, CHUNK, length);
      if (bytesRead === 0) break;
      const newline = buffer.subarray(0, bytesRead).indexOf(0x0a);
      parts.push(Buffer.from(buffer.subarray(0, newline === -1 ? bytesRead : newline)));
      length += bytesRead;
      if (newline !== -1) break;
    }
    return length === 0 ? undefined : Buffer.concat(parts).toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
}

/** The header's id and cwd, or undefined when the file has no readable session header. */
export function sessionHeaderFactsOf(file: string): SessionHeaderFacts | undefined {
  try {
    const line = firstLine(file);
    if (line === undefined) return undefined;
    const header = SessionHeaderSchema.safeParse(JSON.parse(line));
    if (!header.success || header.data.id.length === 0) return undefined;
    return { id: header.data.id, cwd: header.data.cwd };
  } catch {
    return undefined;
  }
}
