import fs from 'node:fs';
import path from 'node:path';
import { SessionHeaderSchema } from '../../shared/session-entries.js';
import { openRegularFileSync } from './regular-file.js';

/*
 * A session's id is its header's `id`, as pi takes it. The file name is only a guess at it: pi
 * names a file `<timestamp>_<id>.jsonl`, but a custom id (`pi --session-id my.id_1`) may hold `_`
 * and `.`, and a file renamed by hand says nothing at all.
 */

const CHUNK = 64 * 1024;
/** As pi: a header is found within the first MiB of a file. */
const MAX_HEADER_BYTES = 1 << 20;

/** The first line of `file` (without its newline), or undefined when there is none to read. */
function readHeaderLine(file: string): string | undefined {
  const fd = openRegularFileSync(file);
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

export interface SessionHeaderFacts {
  id: string;
  /** The header's `cwd`; undefined when it has none. */
  cwd: string | undefined;
}

/**
 * The id and working directory the header of `file` names, or undefined when it has no readable
 * session header: the cwd tells apart the sessions of several working directories in one shared
 * folder (pi's `sessionDir`).
 */
export function sessionHeaderFactsOf(file: string): SessionHeaderFacts | undefined {
  try {
    const line = readHeaderLine(file);
    if (line === undefined) return undefined;
    const header = SessionHeaderSchema.safeParse(JSON.parse(line));
    if (!header.success || header.data.id.length === 0) return undefined;
    return { id: header.data.id, cwd: header.data.cwd };
  } catch {
    return undefined;
  }
}

/** The id in the header of `file`, or undefined when it has no readable session header. */
export function sessionIdOfFile(file: string): string | undefined {
  return sessionHeaderFactsOf(file)?.id;
}

/**
 * The id a pi file name carries: everything after the timestamp's `_` (a timestamp has none).
 * Only for a file that is not there to read (a fork's parent on another machine); a file that
 * exists is asked with `sessionIdOfFile`.
 */
export function sessionIdFromFileName(file: string): string | undefined {
  return /^[^_]+_(.+)\.jsonl$/.exec(path.basename(file))?.[1];
}
