import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { CodedError } from '../errors/coded-error.js';

/*
 * Every read of a session file opens it here. A path can name a FIFO, a device or a socket as well
 * as a file: a member's bash makes `mkfifo pipe` in the workspace, an imported header names it as
 * its `parentSession`, and a plain open for reading then waits for a writer for ever, on the event
 * loop (a synchronous open) or on one of libuv's four file threads (an asynchronous one; four of
 * them and no file can be read at all). Opened without blocking and checked on the descriptor, a
 * path that is not a regular file is refused at once, and nothing can swap it in between.
 */

const READ_FLAGS = fs.constants.O_RDONLY | fs.constants.O_NONBLOCK;

export class NotRegularFileError extends CodedError {
  readonly code = 'not_a_regular_file';
  constructor(file: string) {
    super(`"${path.basename(file)}" is not a regular file; Arbor reads only regular files.`);
  }
}

/** A descriptor of `file` open for reading; throws NotRegularFileError for anything else. */
export function openRegularFileSync(file: string): number {
  const fd = fs.openSync(file, READ_FLAGS);
  let regular = false;
  try {
    regular = fs.fstatSync(fd).isFile();
  } finally {
    if (!regular) fs.closeSync(fd);
  }
  if (!regular) throw new NotRegularFileError(file);
  return fd;
}

/** As openRegularFileSync, without blocking the event loop at all. */
export async function openRegularFile(file: string): Promise<FileHandle> {
  const handle = await fs.promises.open(file, READ_FLAGS);
  let regular = false;
  try {
    regular = (await handle.stat()).isFile();
  } finally {
    if (!regular) await handle.close();
  }
  if (!regular) throw new NotRegularFileError(file);
  return handle;
}
