import fs from 'node:fs';
import lockfile from 'proper-lockfile';

/*
 * How pi 1.6 changes its JSON files in the agent folder (auth.json, settings.json): under
 * proper-lockfile's lock on the file itself (stale after 30 s), with the file read again inside
 * the lock and written in place, two-space JSON. Arbor changes them the same way, so it and a
 * running pi never lose each other's writes.
 */

export interface LockedChange<T> {
  /** Mode of the file when it has to be made (an existing file keeps its own mode or ACL). */
  mode: number;
  /** The file's text read as data; throws with a clear message when it is not valid. */
  parse(text: string): T;
  /** Changes `data` in place; the file is written only when it returns true. */
  edit(data: T): boolean;
}

/** Applies a change to `file` under pi's lock; resolves to whether the file was written. */
export async function changeUnderPiLock<T>(
  file: string,
  change: LockedChange<T>,
): Promise<boolean> {
  try {
    fs.writeFileSync(file, '{}', { mode: change.mode, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const release = await lockfile.lock(file, {
    stale: 30_000,
    retries: { retries: 20, minTimeout: 20, maxTimeout: 500, factor: 2 },
  });
  try {
    const data = change.parse(fs.readFileSync(file, 'utf8'));
    if (!change.edit(data)) return false;
    await fs.promises.writeFile(file, `${JSON.stringify(data, null, 2)}\n`, 'utf8');
    return true;
  } finally {
    await release();
  }
}
