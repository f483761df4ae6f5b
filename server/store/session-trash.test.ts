import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { moveToTrash, restoreFromTrash, trashDir, trashRecordOf } from './session-trash.js';

/*
 * A relocated session folder (decision 071) may sit on another file system than the data folder
 * and its trash: there a rename fails with EXDEV, and deleting or restoring a session must still
 * move it whole. /dev/shm (tmpfs) and the temporary folder are two file systems here.
 */

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function tempIn(root: string): string {
  const dir = fs.mkdtempSync(path.join(root, 'arbor-trash-'));
  made.push(dir);
  return dir;
}

describe('the trash across file systems', () => {
  it('moves a session to the trash and back when its folder is on another file system', () => {
    const dataDir = tempIn(os.tmpdir());
    const sessions = tempIn('/dev/shm');
    // The premise: the two folders are on different devices, so a rename cannot join them.
    expect(fs.statSync(sessions).dev).not.toBe(fs.statSync(dataDir).dev);
    const file = path.join(sessions, '2026-12-01T00-00-00-000Z_abc.jsonl');
    const bytes = `${JSON.stringify({ type: 'session', version: 3, id: 'abc', cwd: '/w' })}\n`;
    fs.writeFileSync(file, bytes);

    const name = moveToTrash(dataDir, 'w0', file, {
      sessionId: 'abc',
      owner: 'ann',
      deletedBy: 'ann',
    });
    const trashed = path.join(trashDir(dataDir, 'w0'), name);
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.readFileSync(trashed, 'utf8')).toBe(bytes);
    expect(trashRecordOf(trashed)).toMatchObject({ sessionId: 'abc', owner: 'ann' });

    restoreFromTrash(trashed, file);
    expect(fs.readFileSync(file, 'utf8')).toBe(bytes);
    expect(fs.existsSync(trashed)).toBe(false);
    expect(trashRecordOf(trashed)).toBeUndefined();
  });
});
