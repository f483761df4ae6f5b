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
  /**
   * Changes `data` in place; the file is written only when it returns (or resolves to) true. An
   * edit may wait (an OAuth refresh does), holding the lock meanwhile, as pi's own edits do.
   */
  edit(data: T): boolean | Promise<boolean>;
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
  // A lock lost while held (its file taken over as stale, as after a long pause) must not end the
  // process, as proper-lockfile's default does: the change is then refused instead of written.
  let compromised: Error | undefined;
  const release = await lockfile.lock(file, {
    stale: 30_000,
    // About 30 s of waiting, as pi waits for another holder (one may be refreshing a token).
    retries: { retries: 60, minTimeout: 20, maxTimeout: 500, factor: 2 },
    onCompromised: (error) => {
      compromised = error;
    },
  });
  try {
    const data = change.parse(fs.readFileSync(file, 'utf8'));
    if (!(await change.edit(data))) return false;
    if (compromised) throw new Error(`The lock on ${file} was lost: ${compromised.message}`);
    await fs.promises.writeFile(file, `${JSON.stringify(data, null, 2)}\n`, 'utf8');
    return true;
  } finally {
    await release().catch(() => undefined);
  }
}
