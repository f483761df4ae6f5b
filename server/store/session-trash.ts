import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/*
 * The trash: `<dataDir>/trash/<workspaceId>/`, one file per deleted session under the name it had
 * (numbered when that name was deleted before). Next to each, `<name>.owner.json` records who owned
 * that very file when it was deleted, so that a restore is checked against the owner of the file
 * being restored, not against whatever now claims its id (decision 055).
 */

const TrashRecordSchema = z.object({
  version: z.literal(1),
  sessionId: z.string(),
  owner: z.string().nullable(),
  deletedBy: z.string(),
  deletedAt: z.string(),
});
export type TrashRecord = z.infer<typeof TrashRecordSchema>;

export function trashDir(dataDir: string, workspaceId: string): string {
  return path.join(dataDir, 'trash', workspaceId);
}

function recordFileFor(trashed: string): string {
  return `${trashed}.owner.json`;
}

/**
 * Moves `file` into the workspace's trash and records its owner; answers the name it has there,
 * never one that overwrites an earlier deletion.
 */
export function moveToTrash(
  dataDir: string,
  workspaceId: string,
  file: string,
  record: Omit<TrashRecord, 'version' | 'deletedAt'>,
): string {
  const dir = trashDir(dataDir, workspaceId);
  fs.mkdirSync(dir, { recursive: true });
  const base = path.basename(file);
  let target = path.join(dir, base);
  for (let i = 1; fs.existsSync(target) || fs.existsSync(recordFileFor(target)); i++) {
    target = path.join(dir, `${base}.${i}`);
  }
  const full: TrashRecord = { version: 1, ...record, deletedAt: new Date().toISOString() };
  // The record first: a trashed file is never without its owner, even after a crash in between.
  fs.writeFileSync(recordFileFor(target), `${JSON.stringify(full)}\n`, { mode: 0o600 });
  moveFile(file, target);
  return path.basename(target);
}

/**
 * Renames `from` to `to`; across file systems (a session folder relocated to another disk than
 * the data folder's trash) copies it, flushes the copy, then removes the original, so a crash in
 * between leaves the file in both places, never in neither.
 */
function moveFile(from: string, to: string): void {
  try {
    fs.renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
    fs.copyFileSync(from, to, fs.constants.COPYFILE_EXCL);
    const fd = fs.openSync(to, 'r');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.rmSync(from);
  }
}

/**
 * The record of a trashed file: `undefined` when there is none (a file put there by hand, or by
 * a version before these records), `'unreadable'` when it does not parse.
 */
export function trashRecordOf(trashed: string): TrashRecord | undefined | 'unreadable' {
  let text: string;
  try {
    text = fs.readFileSync(recordFileFor(trashed), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return 'unreadable';
  }
  try {
    const parsed = TrashRecordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

/** Moves a trashed file to `target` (which must not exist) and drops its record. */
export function restoreFromTrash(trashed: string, target: string): void {
  fs.mkdirSync(path.dirname(target), { recursive: true });
  try {
    fs.linkSync(trashed, target);
    fs.rmSync(trashed);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw error;
    if (fs.existsSync(target)) throw error;
    moveFile(trashed, target);
  }
  fs.rmSync(recordFileFor(trashed), { force: true });
}

/**
 * Whether a session file with `sessionId` exists in the data folder: in any session folder (every
 * workspace's, and pi's folders of other working directories) and, unless left out, any trash.
 */
export function sessionIdOnDisk(
  dataDir: string,
  sessionId: string,
  where: readonly ('sessions' | 'trash')[] = ['sessions', 'trash'],
): boolean {
  const suffix = `_${sessionId}.jsonl`;
  const numbered = new RegExp(`${escapeRegExp(suffix)}\\.\\d+$`);
  const matches = (name: string) => name.endsWith(suffix) || numbered.test(name);
  for (const root of where) {
    for (const dir of subfolders(path.join(dataDir, root))) {
      let names: string[];
      try {
        names = fs.readdirSync(dir);
      } catch {
        continue;
      }
      if (names.some(matches)) return true;
    }
  }
  return false;
}

function subfolders(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.join(dir, entry.name));
  } catch {
    return [];
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
