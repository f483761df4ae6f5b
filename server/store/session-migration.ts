import fs from 'node:fs';
import path from 'node:path';
import { CURRENT_SESSION_VERSION } from '../../shared/session-entries.js';
import { generateEntryId } from './entry-ids.js';
import { backupFileFor, migratingFileFor } from './session-paths.js';

/*
 * v1/v2 → v3, as pi migrates (pi-session-format.md §1.8), but without ever putting the original at
 * risk: the new content goes to `<file>.migrating`, is fsynced, the original is kept as a hard link
 * `<file>.v<N>.bak`, and only then does a rename put the new file in place. Lines that are not JSON
 * are carried over verbatim at their place (pi drops them); a torn last line is left out of the new
 * file but stays in the backup, which is then kept. v1 entries get `type, id, parentId, timestamp`
 * as their first keys (see `envelopeFirst`).
 */

export interface MigrationResult {
  /** The migrated file content (v3). */
  bytes: Buffer;
  fromVersion: number;
  /** Bytes of a torn last line that the new content leaves out. */
  tornTailBytes: number;
  /** 1-based line numbers of lines carried over verbatim because they are not JSON. */
  badLines: number[];
}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Migrates the content of a v1 or v2 file in memory. Pure apart from random ids. */
export function migrateContent(content: string): MigrationResult {
  const segments = content.split('\n');
  const endsWithNewline = content.endsWith('\n');
  const lastSegment = segments[segments.length - 1] ?? '';
  // `content.split` leaves '' after a final newline; anything else there is an unfinished line.
  segments.pop();
  let tornTailBytes = 0;
  const lines: { text: string; value?: Json }[] = segments.map((text) => ({ text }));
  if (!endsWithNewline && lastSegment.trim()) {
    try {
      const value: unknown = JSON.parse(lastSegment);
      lines.push({ text: lastSegment, value: isObject(value) ? value : undefined });
    } catch {
      tornTailBytes = Buffer.byteLength(lastSegment);
    }
  }
  const badLines: number[] = [];
  const objects: Json[] = [];
  lines.forEach((line, i) => {
    if (line.value) {
      objects.push(line.value);
      return;
    }
    if (!line.text.trim()) return;
    try {
      const value: unknown = JSON.parse(line.text);
      if (isObject(value)) {
        line.value = value;
        objects.push(value);
        return;
      }
    } catch {
      // carried verbatim below
    }
    badLines.push(i + 1);
  });

  const header = objects.find((o) => o.type === 'session');
  const fromVersion = typeof header?.version === 'number' ? header.version : 1;
  if (fromVersion < 2) migrateV1ToV2(objects);
  const repaired = fromVersion === 2 ? repairMissingIds(objects) : new Set<Json>();
  if (fromVersion < 3) migrateV2ToV3(objects);

  const out: string[] = [];
  for (const line of lines) {
    if (line.value) {
      const reorder = fromVersion < 2 || repaired.has(line.value);
      out.push(JSON.stringify(reorder ? envelopeFirst(line.value) : line.value));
    } else if (line.text.trim()) out.push(line.text);
  }
  return {
    bytes: Buffer.from(out.length ? `${out.join('\n')}\n` : '', 'utf8'),
    fromVersion,
    tornTailBytes,
    badLines,
  };
}

/**
 * The entry with `type, id, parentId, timestamp` as its first keys, the order v3 writers use (pi
 * itself leaves the new keys last; order means nothing to readers, but this order lets the store
 * index the migrated file without parsing every line).
 */
function envelopeFirst(entry: Json): Json {
  if (entry.type === 'session' || !('id' in entry)) return entry;
  const { type, id, parentId, timestamp, ...rest } = entry;
  return { type, id, parentId, timestamp, ...rest };
}

function migrateV1ToV2(objects: Json[]): void {
  const ids = new Set<string>();
  let previous: string | null = null;
  for (const entry of objects) {
    if (entry.type === 'session') {
      entry.version = 2;
      continue;
    }
    const id = generateEntryId(ids);
    ids.add(id);
    entry.id = id;
    entry.parentId = previous;
    previous = id;
    if (entry.type === 'compaction' && typeof entry.firstKeptEntryIndex === 'number') {
      const target = objects[entry.firstKeptEntryIndex];
      if (target && target.type !== 'session') entry.firstKeptEntryId = target.id;
      delete entry.firstKeptEntryIndex;
    }
  }
}

/**
 * v2 entries without an id (lines appended by a pi from before the tree, or by hand) would be
 * lost: no entry can point at them and none of them can be a leaf. Each gets a fresh id and, when
 * it names no parent, the entry before it as parent, as v1→v2 does for a whole file. (pi 1.6 keeps
 * them under an undefined id and, at its leaf, sends the last one alone; see decision 061.)
 */
function repairMissingIds(objects: Json[]): Set<Json> {
  const repaired = new Set<Json>();
  const ids = new Set<string>();
  for (const entry of objects) if (typeof entry.id === 'string' && entry.id) ids.add(entry.id);
  let previous: string | null = null;
  for (const entry of objects) {
    if (entry.type === 'session') continue;
    if (typeof entry.id !== 'string' || !entry.id) {
      const id = generateEntryId(ids);
      ids.add(id);
      entry.id = id;
      if (typeof entry.parentId !== 'string' && entry.parentId !== null) entry.parentId = previous;
      repaired.add(entry);
    }
    previous = entry.id as string;
  }
  return repaired;
}

function migrateV2ToV3(objects: Json[]): void {
  for (const entry of objects) {
    if (entry.type === 'session') {
      entry.version = CURRENT_SESSION_VERSION;
      continue;
    }
    if (
      entry.type === 'message' &&
      isObject(entry.message) &&
      entry.message.role === 'hookMessage'
    ) {
      entry.message.role = 'custom';
    }
  }
}

function fsyncDir(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Puts `result` in place of `file` safely (see the module comment). The caller holds the lock.
 * The backup is removed once the new file is durable, unless the new file leaves something out.
 */
export function writeMigratedFile(file: string, result: MigrationResult): void {
  const migrating = migratingFileFor(file);
  const backup = backupFileFor(file, result.fromVersion);
  const fd = fs.openSync(migrating, 'w', 0o644);
  try {
    let written = 0;
    while (written < result.bytes.length) {
      written += fs.writeSync(fd, result.bytes, written, result.bytes.length - written);
    }
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  fs.rmSync(backup, { force: true });
  fs.linkSync(file, backup);
  fs.renameSync(migrating, file);
  fsyncDir(path.dirname(file));
  if (result.tornTailBytes === 0) fs.rmSync(backup, { force: true });
}
