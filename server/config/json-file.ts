import fs from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';

/**
 * Writes JSON so that a reader never sees half a file: a temp file beside the target, fsynced, then
 * renamed over it. Files that hold secrets (hashes, login ids) are created readable by the owner only.
 */
export function writeJsonAtomic(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
  const fd = fs.openSync(temp, 'w', 0o600);
  try {
    fs.writeSync(fd, `${JSON.stringify(value, null, 2)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.renameSync(temp, file);
}

/**
 * `writeJsonAtomic` without blocking the event loop: the write and the fsync run in libuv's
 * thread pool. Callers serialise their own writes to one file.
 */
export async function writeJsonAtomicAsync(file: string, value: unknown): Promise<void> {
  await fs.promises.mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${Date.now()}.tmp`;
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
