import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { withFileLock, withFileLockSync } from '../store/file-lock.js';

/** A temp file name beside `file` that no other writer, in this process or another, uses. */
function tempFileFor(file: string): string {
  return `${file}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
}

/**
 * Writes JSON so that a reader never sees half a file: a temp file beside the target, fsynced, then
 * renamed over it. Files that hold secrets (hashes, login ids) are created readable by the owner only.
 */
export function writeJsonAtomic(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = tempFileFor(file);
  try {
    const fd = fs.openSync(temp, 'w', 0o600);
    try {
      fs.writeSync(fd, `${JSON.stringify(value, null, 2)}\n`);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } catch (error) {
    fs.rmSync(temp, { force: true });
    throw error;
  }
}

/**
 * Read-merge-write for a file that several processes write (a server and `arbor user`): under
 * `<file>.lock`, reads what is on disk now (undefined when missing), lets `update` merge its
 * change into it, and writes the result atomically. Returns what was written. Nobody's record is
 * lost to a writer that read the file before them. `update` returning undefined writes nothing.
 */
export function updateJsonFile<T>(
  file: string,
  update: (current: unknown) => T | undefined,
): T | undefined {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return withFileLockSync(file, () => {
    const next = update(readJsonFile(file));
    if (next !== undefined) writeJsonAtomic(file, next);
    return next;
  });
}

/** `updateJsonFile` with the write and fsync off the event loop. */
export async function updateJsonFileAsync<T>(
  file: string,
  update: (current: unknown) => T | undefined,
): Promise<T | undefined> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  return withFileLock(file, async () => {
    const next = update(readJsonFile(file));
    if (next !== undefined) await writeJsonAtomicAsync(file, next);
    return next;
  });
}

/**
 * `writeJsonAtomic` without blocking the event loop: the write and the fsync run in libuv's
 * thread pool. Callers serialise their own writes to one file (see `updateJsonFileAsync`).
 */
export async function writeJsonAtomicAsync(file: string, value: unknown): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const temp = tempFileFor(file);
  const handle = await fs.promises.open(temp, 'w', 0o600);
  try {
    try {
      await handle.writeFile(`${JSON.stringify(value, null, 2)}\n`);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.promises.rename(temp, file);
  } catch (error) {
    await fs.promises.rm(temp, { force: true });
    throw error;
  }
}

/** A JSON file that exists but cannot be read, or does not hold JSON. */
export class JsonFileError extends Error {
  constructor(
    readonly file: string,
    readonly problem: 'unreadable' | 'not_json',
    readonly detail: string,
    options?: ErrorOptions,
  ) {
    super(
      problem === 'not_json'
        ? `${file} is not valid JSON (${detail}); fix or remove it.`
        : `${file} cannot be read (${detail}).`,
      options,
    );
    this.name = 'JsonFileError';
  }
}

/**
 * Reads a JSON file; `undefined` when it does not exist. Throws `JsonFileError`, naming the file,
 * when it cannot be read or parsed: a broken settings file is reported, never taken as empty.
 */
export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new JsonFileError(file, 'unreadable', (error as Error).message, { cause: error });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new JsonFileError(file, 'not_json', (error as Error).message, { cause: error });
  }
}

/** A zod error as one line: `path: message; path: message`. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(root)'}: ${issue.message}`)
    .join('; ');
}

/** The file's modification time in ms, or 0 when it does not exist. */
export function mtimeOf(file: string): number {
  // Checked on every command: a missing file must not cost an exception and its stack.
  try {
    return fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  } catch {
    return 0;
  }
}
