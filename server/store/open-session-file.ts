import fs from 'node:fs';
import path from 'node:path';
import type { SessionEntry, SessionHeader } from '../../shared/session-entries.js';
import { bufferSource, fdSource, fileSource, type BodySource } from './body-cache.js';
import { acquireLock, type FileLock } from './file-lock.js';
import { createSessionFile } from './new-session-file.js';
import { newHeader } from './session-branching.js';
import { SessionIndex } from './session-index.js';
import { serializeLine } from './session-lines.js';
import { emptyReport, loadSessionBytes, loadSessionFd, type OpenReport } from './session-loader.js';
import { migrateContent, writeMigratedFile, type MigrationResult } from './session-migration.js';
import { SessionWriter } from './session-writer.js';
import { openRegularFileSync } from './regular-file.js';
import { CodedError } from '../errors/coded-error.js';

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

/** The state of a session with no entries yet (a new file, or one kept in memory). */
export function emptyState(file: string | undefined, header: SessionHeader): StoreState {
  const index = new SessionIndex();
  index.finalize();
  return {
    file,
    header,
    report: emptyReport(),
    index,
    bodies: new Map(),
    readOnly: false,
    nextLine: 0,
  };
}

/**
 * The state of a new session file in `sessionDir`, its lock held and its header written; only a
 * header, so it is made durable by the first turn's sync and starting a session never waits on
 * disk.
 */
export function newFileState(opts: {
  cwd: string;
  sessionDir: string;
  parentSession?: string;
}): StoreState {
  const header = newHeader(opts.cwd, opts.parentSession);
  const { file, lock, writer } = createSessionFile(
    opts.sessionDir,
    header,
    serializeLine(header),
    false,
  );
  return { ...emptyState(file, header), writer, source: fileSource(file), lock, nextLine: 2 };
}

/**
 * Opens the existing `file` as `options` ask and hands it to `load`: a writable open takes the
 * file's lock first (released if `load` throws), the others take none.
 */
export function openExisting<T>(
  file: string,
  options: OpenOptions,
  load: (file: string, lock: FileLock | undefined, mode: OpenMode) => T,
): T {
  const resolved = path.resolve(file);
  if (!fs.existsSync(resolved)) throw new Error(`No such session file: ${resolved}`);
  const mode = openMode(resolved, options);
  if (mode !== 'write') return load(resolved, undefined, mode);
  const lock = acquireLock(resolved);
  return releasingOnFailure(lock, () => load(resolved, lock, 'write'));
}

/** `load()`, with `lock` released if it throws. */
export function releasingOnFailure<T>(lock: FileLock, load: () => T): T {
  try {
    return load();
  } catch (error) {
    lock.release();
    throw error;
  }
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
  /** Where the bodies of the first context come from (the descriptor the file was read with). */
  source: BodySource;
  /** Where bodies come from once the first context is built (may be `source` itself). */
  laterSource(): BodySource;
  /** For a read-only open: what making it writable must do first. */
  pending?: PendingRepair;
}

/** The file changed on disk between the read and the first write (another program wrote it). */
export class SessionChangedError extends CodedError {
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
function openMode(file: string, options: OpenOptions): OpenMode {
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
  let fd = openRegularFileSync(file);
  try {
    if (fs.fstatSync(fd).size === 0) {
      if (readOnly) throw new Error(`${file} is empty`);
      // Nothing to lose: give the empty file a header, as pi does.
      fs.appendFileSync(file, serializeLine(newHeader(process.cwd())));
      fs.closeSync(fd);
      fd = openRegularFileSync(file);
    }
    // The file is streamed, never held whole; only an old file to migrate is read at once (the
    // reads are positional, so the descriptor's own position is still at the start).
    let loaded = loadSessionFd(fd, file);
    const stat = fs.fstatSync(fd);
    let migration: MigrationResult | undefined;
    if ('migrate' in loaded) {
      migration = migrateContent(fs.readFileSync(fd).toString('utf8'));
      loaded = loadSessionBytes(migration.bytes, file);
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
    const state = {
      file,
      header: loaded.header,
      report,
      index: loaded.index,
      bodies: loaded.bodies,
      readOnly,
      writer,
      nextLine: loaded.lineCount + 1,
    };
    const pendingOf = readOnly ? { pending } : {};
    if (!migration) {
      // The skeleton's offsets are the file's: its bodies are read through the same descriptor.
      const source = fdSource(fd, file);
      return { state, source, laterSource: () => source, ...pendingOf };
    }
    fs.closeSync(fd);
    // Migrated bytes: the first context comes from them. A file migrated in memory only does not
    // match the skeleton's offsets, so its bytes stay; a migrated file on disk does.
    const migrated = bufferSource(migration.bytes);
    const inMemoryOnly = readOnly;
    return {
      state,
      source: migrated,
      laterSource: () => (inMemoryOnly ? migrated : fileSource(file)),
      ...pendingOf,
    };
  } catch (error) {
    closeQuietly(fd);
    throw error;
  }
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // already closed
  }
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
