import crypto from 'node:crypto';
import fs from 'node:fs';
import { promisify } from 'node:util';
import { describeErrno, fdPath, MissingPathError, type WorkspaceEntry } from './workspace-path.js';

/*
 * Reading and rewriting files through the descriptors openInWorkspace handed out, never by path:
 * what is read and written is what was opened inside the workspace, whatever happens to the path
 * meanwhile. Node's promise API takes no numeric descriptors, hence the callback API here.
 */

export const readFd = promisify(fs.readFile) as (
  fd: number,
  options: { encoding?: null; signal?: AbortSignal },
) => Promise<Buffer>;

export const readFdText = promisify(fs.readFile) as (
  fd: number,
  options: { encoding: 'utf8'; signal?: AbortSignal },
) => Promise<string>;

export const writeFdText = promisify(fs.writeFile) as (
  fd: number,
  data: string,
  options: { encoding: 'utf8'; signal?: AbortSignal },
) => Promise<void>;

export const fstat = promisify(fs.fstat);

/** The message of a MissingPathError in the tool's own words, or the error as it is. */
export function missingAs(error: unknown, say: (shown: string) => string): Error {
  if (error instanceof MissingPathError) return new Error(say(error.shown));
  return error instanceof Error ? error : new Error(String(error));
}

/**
 * Replaces the file `entry` with `content` atomically: a new file beside it in the held parent
 * directory, with the old one's mode (and owner, where the server may set it), synced, then
 * renamed over it — a crash leaves the old content or the new, never half of it.
 */
export async function replaceFileText(
  entry: WorkspaceEntry,
  content: string,
  signal: AbortSignal,
): Promise<void> {
  const parent = entry.parentFd;
  if (parent === undefined) throw new Error(`Cannot replace ${entry.shown}: it is the workspace`);
  const stat = await fstat(entry.fd);
  const temp = `.arbor-edit-${crypto.randomBytes(6).toString('hex')}.tmp`;
  const { O_WRONLY, O_CREAT, O_EXCL, O_NOFOLLOW } = fs.constants;
  let fd: number;
  try {
    fd = fs.openSync(fdPath(parent, temp), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, 0o600);
  } catch (error) {
    throw new Error(`Cannot write ${entry.shown}: ${describeErrno(error)}`, { cause: error });
  }
  let renamed = false;
  try {
    try {
      await writeFdText(fd, content, { encoding: 'utf8', signal });
      fs.fchmodSync(fd, stat.mode & 0o7777);
      if (process.getuid?.() === 0 && (stat.uid !== 0 || stat.gid !== 0))
        fs.fchownSync(fd, stat.uid, stat.gid);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(fdPath(parent, temp), fdPath(parent, entry.name));
    renamed = true;
  } catch (error) {
    throw new Error(`Cannot write ${entry.shown}: ${describeErrno(error)}`, { cause: error });
  } finally {
    if (!renamed)
      try {
        fs.unlinkSync(fdPath(parent, temp));
      } catch {
        // not created, or already gone
      }
  }
}
