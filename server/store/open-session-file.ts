import fs from 'node:fs';
import type { SessionEntry, SessionHeader } from '../../shared/session-entries.js';
import { bufferSource, fileSource, type BodySource } from './body-cache.js';
import type { FileLock } from './file-lock.js';
import { newHeader } from './session-branching.js';
import type { SessionIndex } from './session-index.js';
import { serializeLine } from './session-lines.js';
import { loadSessionBytes, type OpenReport } from './session-loader.js';
import { migrateContent, writeMigratedFile } from './session-migration.js';
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
  nextLine: number;
}

export interface OpenedFile {
  state: Omit<StoreState, 'lock' | 'source'>;
  /** The bytes that were indexed (the migrated ones after a migration). */
  bytes: Buffer;
  /** Where bodies come from once the caller has taken what it needs from `bytes`. */
  laterSource(): BodySource;
}

/**
 * Reads an existing session file into a skeleton (decisions 002 and 003). A writable open (the
 * caller holds the lock) gives an empty file a header, migrates v1/v2 files safely, cuts a torn
 * last line and adds a missing final newline; a read-only one changes nothing on disk.
 */
export function readSessionFile(file: string, readOnly: boolean): OpenedFile {
  let bytes: Buffer = fs.readFileSync(file);
  if (bytes.length === 0) {
    if (readOnly) throw new Error(`${file} is empty`);
    // Nothing to lose: give the empty file a header, as pi does.
    fs.appendFileSync(file, serializeLine(newHeader(process.cwd())));
    bytes = fs.readFileSync(file);
  }
  let loaded = loadSessionBytes(bytes, file);
  let migratedFrom: number | undefined;
  if ('migrate' in loaded) {
    const result = migrateContent(bytes.toString('utf8'));
    if (!readOnly) writeMigratedFile(file, result);
    migratedFrom = result.fromVersion;
    bytes = result.bytes;
    loaded = loadSessionBytes(bytes, file);
    if ('migrate' in loaded) throw new Error(`Migration of ${file} did not reach version 3`);
    loaded.report.tornTailBytes += result.tornTailBytes;
  }
  const report = loaded.report;
  if (migratedFrom !== undefined) report.migratedFromVersion = migratedFrom;
  let writer: SessionWriter | undefined;
  if (!readOnly) {
    if (report.tornTailBytes > 0 && migratedFrom === undefined) {
      fs.truncateSync(file, loaded.validLength);
    }
    writer = SessionWriter.open(file);
    if (report.missingFinalNewline) writer.append('\n');
    if (report.tornTailBytes > 0 || report.missingFinalNewline) writer.sync();
  }
  const indexed = loaded.bytes;
  // A file migrated in memory only does not match the skeleton's offsets: keep its bytes.
  const inMemoryOnly = readOnly && migratedFrom !== undefined;
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
  };
}
