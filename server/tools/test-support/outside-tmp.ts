import fs from 'node:fs';
import os from 'node:os';
import { onTestFinished } from 'vitest';

/**
 * A folder for a test's files outside /tmp: a sandboxed command's /tmp is its own, which would
 * hide anything a test put in the host's /tmp and let a leak look like a defence.
 */
export const OUTSIDE_TMP = fs.existsSync('/var/tmp') ? '/var/tmp' : os.homedir();

/**
 * Points TMPDIR at OUTSIDE_TMP (a test server started now makes its folders there) until the
 * returned function or the end of the running test puts it back.
 */
export function tmpdirOutsideTmp(): () => void {
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = OUTSIDE_TMP;
  const restore = () => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  };
  onTestFinished(restore);
  return restore;
}
