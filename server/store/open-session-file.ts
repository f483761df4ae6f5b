import fs from 'node:fs';
import type { SessionEntry, SessionHeader } from '../../shared/session-entries.js';
import { bufferSource, fileSource, type BodySource } from './body-cache.js';
import type { FileLock } from './file-lock.js';
import { newHeader } from './session-branching.js';
import type { SessionIndex } from './session-index.js';
import { serializeLine } from './session-lines.js';
import { loadSessionBytes, type OpenReport } from './session-loader.js';
import { migrateContent, writeMigratedFile, type MigrationResult } from './session-migration.js';
import { SessionWriter } from './session-writer.js';

/** Everything a SessionStore is made of. */
export interface StoreState {
  file: string | undefined;
  header: SessionHeader;
  report: OpenReport;
  index: SessionIndex;
  bodies: Map<string, SessionEntry>;
  readOnly: boolean;
  writer?: SessionWriter;
  source?: BodySource;
  lock?: FileLock;
  /** For a file opened to be written on demand: what its first write must do. */
  pending?: PendingRepair;
  nextLine: number;
}

/**
 * What a writable open does to a file that a read left alone: migrate it, cut its torn tail, give
 * it its final newline. Kept so that a session opened for reading becomes writable only when it is
 * first written to (decision 053: opening never writes).
 */
export interface PendingRepair {
  /** The file as it was read: a file changed since then is not written on top of a stale index. */
  seen: { size: number; mtimeMs: number; ino: number };
  migration?: MigrationResult;
  validLength: number;
  tornTailBytes: number;
  missingFinalNewline: boolean;
}

export interface OpenedFile {
  state: Omit<StoreState, 'lock' | 'source'>;
  /** The bytes that were indexed (the migrated ones after a migration). */
  bytes: Buffer;
  /** Where bodies come from once the caller has taken what it needs from `bytes`. */
  laterSource(): BodySource;
  /** For a read-only open: what making it writable must do first. */
  pending?: PendingRepair;
}

/** The file changed on disk between the read and the first write (another program wrote it). */
export class SessionChangedError extends Error {
  readonly code = 'session_changed';
  constructor(readonly file: string) {
    super(
      `The session file ${file} changed on disk since Arbor read it (another program wrote to it); open the session again to see the changes.`,
    );
    this.name = 'SessionChangedError';
  }
}

export type OpenMode = 'read' | 'on demand' | 'write';

export interface OpenOptions {
  /** No lock, no repair, no migration on disk (a v1/v2 file is migrated in memory only). */
  readOnly?: boolean;
  /** Read as `readOnly`; the first write takes the lock, repairs, migrates (decision 053). */
  writableOnDemand?: boolean;
}

/** How to open `file` (which exists) for the given options. */
export function openMode(file: string, options: OpenOptions): OpenMode {
  if (options.readOnly) return 'read';
  // An empty file has nothing to read: only a writable open can give it its header.
  if (options.writableOnDemand && fs.statSync(file).size > 0) return 'on demand';
  return 'write';
}

/**
 * Reads an existing session file into a skeleton (decisions 002 and 003). A writable open (the
 * caller holds the lock) gives an empty file a header, migrates v1/v2 files safely, cuts a torn
 * last line and adds a missing final newline; a read-only one changes nothing on disk and says in
 * `pending` what `makeWritable` would do.
 */
export function readSessionFile(file: string, readOnly: boolean): OpenedFile {
  let bytes: Buffer = fs.readFileSync(file);
  if (bytes.length === 0) {
    if (readOnly) throw new Error(`${file} is empty`);
    // Nothing to lose: give the empty file a header, as pi does.
    fs.appendFileSync(file, serializeLine(newHeader(process.cwd())));
    bytes = fs.readFileSync(file);
  }
  const stat = fs.statSync(file);
  let loaded = loadSessionBytes(bytes, file);
  let migration: MigrationResult | undefined;
  if ('migrate' in loaded) {
    migration = migrateContent(bytes.toString('utf8'));
    bytes = migration.bytes;
    loaded = loadSessionBytes(bytes, file);
    if ('migrate' in loaded) throw new Error(`Migration of ${file} did not reach version 3`);
    loaded.report.tornTailBytes += migration.tornTailBytes;
  }
  const report = loaded.report;
  if (migration) report.migratedFromVersion = migration.fromVersion;
  const pending: PendingRepair = {
    seen: { size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino },
    ...(migration ? { migration } : {}),
    validLength: loaded.validLength,
    tornTailBytes: report.tornTailBytes,
    missingFinalNewline: report.missingFinalNewline,
  };
  const writer = readOnly ? undefined : makeWritable(file, pending, false);
  const indexed = loaded.bytes;
  // A file migrated in memory only does not match the skeleton's offsets: keep its bytes.
  const inMemoryOnly = readOnly && migration !== undefined;
  return {
    state: {
      file,
      header: loaded.header,
      report,
      index: loaded.index,
      bodies: loaded.bodies,
      readOnly,
      writer,
      nextLine: loaded.lineCount + 1,
    },
    bytes: indexed,
    laterSource: () => (inMemoryOnly ? bufferSource(indexed) : fileSource(file)),
    ...(readOnly ? { pending } : {}),
  };
}

/**
 * Repairs a file as a writable open would and opens its writer; the caller holds the lock. With
 * `checkUnchanged`, refuses (SessionChangedError) a file that is not the one that was read.
 */
export function makeWritable(
  file: string,
  pending: PendingRepair,
  checkUnchanged: boolean,
): SessionWriter {
  if (checkUnchanged) {
    const now = fs.statSync(file, { throwIfNoEntry: false });
    const { seen } = pending;
    if (!now || now.size !== seen.size || now.mtimeMs !== seen.mtimeMs || now.ino !== seen.ino) {
      throw new SessionChangedError(file);
    }
  }
  if (pending.migration) writeMigratedFile(file, pending.migration);
  else if (pending.tornTailBytes > 0) fs.truncateSync(file, pending.validLength);
  const writer = SessionWriter.open(file);
  if (pending.missingFinalNewline) writer.append('\n');
  if (pending.tornTailBytes > 0 || pending.missingFinalNewline) writer.sync();
  return writer;
}
