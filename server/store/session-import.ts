import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SessionHeader } from '../../shared/session-entries.js';
import { findParentCycle, ParentMap } from './parent-cycles.js';
import { parseLine } from './session-lines.js';
import { needsMigration } from './session-loader.js';
import { sessionFileName } from './session-paths.js';
import { SessionStore } from './session-store.js';
import { fsyncDirectory } from './session-writer.js';

/*
 * An uploaded session file, streamed into a session folder (decision 055). The bytes go to a temp
 * file in the target folder as they arrive, and every line is checked as soon as it is complete:
 * valid UTF-8, JSON, an entry Arbor can show. Only a file that passes whole is linked into place
 * under pi's name for it; anything else is refused with the line that failed and leaves nothing
 * behind. Memory holds one line and the parent of each entry (for the cycle check), never the file.
 *
 * What is stored is what was uploaded, byte for byte, except when the header's id cannot be kept
 * (`chooseId` says so): then only the header line is written again, with the new id.
 */

export class SessionImportError extends Error {
  constructor(
    message: string,
    readonly kind: 'invalid' | 'too_large' | 'conflict',
  ) {
    super(message);
    this.name = 'SessionImportError';
  }
}

export interface ImportLimits {
  /** Refuse a file longer than this. */
  maxBytes: number;
  /** Refuse a line longer than this (one line is held in memory to be checked). */
  maxLineBytes: number;
}

export interface ImportedSession {
  file: string;
  sessionId: string;
  /** The id the uploaded header carried, when the import got a different one. */
  replacedId?: string;
}

const NEWLINE = 0x0a;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T[0-9:.]+Z$/;

/**
 * Streams `source` into `targetDir` as a session file. `chooseId` gets the header's id and answers
 * the id to store it under (the same one to keep it); it is called once, when the header is read.
 */
export async function importSessionStream(
  source: AsyncIterable<Buffer | string>,
  targetDir: string,
  limits: ImportLimits,
  chooseId: (headerId: string) => string,
): Promise<ImportedSession> {
  fs.mkdirSync(targetDir, { recursive: true });
  removeStaleTempFiles(targetDir);
  const temp = path.join(targetDir, `.import-${crypto.randomBytes(8).toString('hex')}.part`);
  const handle = await fs.promises.open(temp, 'wx', 0o644);
  let closed = false;
  try {
    const checker = new LineChecker(limits, chooseId);
    let total = 0;
    for await (const piece of source) {
      const chunk = typeof piece === 'string' ? Buffer.from(piece) : piece;
      total += chunk.length;
      if (total > limits.maxBytes) {
        throw new SessionImportError(
          `The session file is larger than ${limits.maxBytes} bytes.`,
          'too_large',
        );
      }
      const out = checker.push(chunk);
      for (const bytes of out) await writeAll(handle, bytes);
    }
    for (const bytes of checker.end()) await writeAll(handle, bytes);
    await handle.sync();
    await handle.close();
    closed = true;
    const { header, sessionId, replacedId } = checker.result();
    if (needsMigration(header)) checkOlderVersion(temp);
    const timestamp = ISO_TIME.test(header.timestamp) ? header.timestamp : new Date().toISOString();
    const file = path.join(targetDir, sessionFileName(timestamp, sessionId));
    placeWithoutOverwriting(temp, file, sessionId);
    fsyncDirectory(targetDir);
    return { file, sessionId, ...(replacedId !== undefined ? { replacedId } : {}) };
  } finally {
    if (!closed) await handle.close().catch(() => undefined);
    fs.rmSync(temp, { force: true });
  }
}

const TEMP_FILE = /^\.import-[0-9a-f]+\.part$/;
/** A temp file this old is from an import a crash cut off (no upload runs for a day). */
const STALE_TEMP_MS = 24 * 60 * 60 * 1000;

function removeStaleTempFiles(dir: string): void {
  for (const name of fs.readdirSync(dir)) {
    if (!TEMP_FILE.test(name)) continue;
    const file = path.join(dir, name);
    try {
      if (Date.now() - fs.statSync(file).mtimeMs > STALE_TEMP_MS) fs.rmSync(file, { force: true });
    } catch {
      // Gone already, or not ours to remove: either way not this import's business.
    }
  }
}

async function writeAll(handle: fs.promises.FileHandle, bytes: Buffer): Promise<void> {
  let written = 0;
  while (written < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, written, bytes.length - written);
    written += bytesWritten;
  }
}

/** Links `temp` to `file` (failing if `file` exists: an import never replaces a session). */
function placeWithoutOverwriting(temp: string, file: string, sessionId: string): void {
  try {
    fs.linkSync(temp, file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') {
      throw new SessionImportError(`A session with id ${sessionId} already exists.`, 'conflict');
    }
    // A file system without hard links: the id was reserved, so a rename cannot clobber a session.
    if (fs.existsSync(file)) throw error;
    fs.renameSync(temp, file);
  }
}

/**
 * A v1/v2 file (pi's older formats: entries without ids) is checked by migrating it in memory, as
 * opening it does; only its lines' JSON was checked while streaming.
 */
function checkOlderVersion(file: string): void {
  const store = SessionStore.openReadOnly(file);
  try {
    const report = store.openReport;
    if (report.badLines.length > 0 || report.tornTailBytes > 0) {
      throw new SessionImportError(
        `The session file (version ${store.openReport.migratedFromVersion ?? 1}) has lines that are not valid entries (line ${report.badLines.slice(0, 10).join(', ')}).`,
        'invalid',
      );
    }
  } finally {
    store.close();
  }
}

/**
 * Cuts the stream at newlines and checks each complete line; answers the bytes to write. Until the
 * header is complete nothing is written, so that it can be written again with another id.
 */
class LineChecker {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  private pending: Buffer[] = [];
  private pendingLength = 0;
  private lineNo = 0;
  private header: SessionHeader | undefined;
  private sessionId: string | undefined;
  private replacedId: string | undefined;
  private olderVersion = false;
  private readonly parents = new ParentMap();

  constructor(
    private readonly limits: ImportLimits,
    private readonly chooseId: (headerId: string) => string,
  ) {}

  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      this.hold(chunk.subarray(start, end));
      if (newline === -1) break;
      const line = this.takeLine();
      if (this.header === undefined) {
        const header = this.checkHeader(line);
        out.push(this.headerBytes(line, header, true));
      } else {
        this.checkEntry(line);
      }
      start = end + 1;
    }
    // Once the header is out, the bytes go out as they came, whole lines or not.
    if (this.header !== undefined) {
      const headerDone = out.length > 0;
      if (headerDone) {
        const afterHeader = chunk.indexOf(NEWLINE) + 1;
        out.push(chunk.subarray(afterHeader));
      } else {
        out.push(chunk);
      }
    }
    return out;
  }

  /** The last line, which may lack its newline (it must then be a whole entry). */
  end(): Buffer[] {
    if (this.pendingLength === 0) {
      if (this.header === undefined) {
        throw new SessionImportError(
          'Send the session file as the request body (Content-Type: application/x-ndjson).',
          'invalid',
        );
      }
      this.checkTree();
      return [];
    }
    const line = this.takeLine();
    if (this.header === undefined) {
      const header = this.checkHeader(line);
      // A file of one header line without its newline.
      return [this.headerBytes(line, header, false)];
    }
    this.checkEntry(line, true);
    this.checkTree();
    return [];
  }

  result(): { header: SessionHeader; sessionId: string; replacedId?: string } {
    if (!this.header || this.sessionId === undefined) throw new Error('no header was read');
    return {
      header: this.header,
      sessionId: this.sessionId,
      ...(this.replacedId !== undefined ? { replacedId: this.replacedId } : {}),
    };
  }

  private hold(piece: Buffer): void {
    if (piece.length === 0) return;
    this.pendingLength += piece.length;
    if (this.pendingLength > this.limits.maxLineBytes) {
      throw new SessionImportError(
        `The session file's line ${this.lineNo + 1} is longer than ${this.limits.maxLineBytes} bytes.`,
        'too_large',
      );
    }
    this.pending.push(piece);
  }

  private takeLine(): string {
    this.lineNo++;
    const bytes = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    this.pendingLength = 0;
    try {
      return this.decoder.decode(bytes);
    } catch {
      throw new SessionImportError(
        `The session file's line ${this.lineNo} is not valid UTF-8; session files are UTF-8 text.`,
        'invalid',
      );
    }
  }

  private checkHeader(text: string): SessionHeader {
    const parsed = parseLine(text);
    if (parsed.kind !== 'header') {
      throw new SessionImportError(
        'Not a session file: the first line must be a session header ({"type":"session",...}).',
        'invalid',
      );
    }
    this.header = parsed.header;
    this.olderVersion = needsMigration(parsed.header);
    return parsed.header;
  }

  /** The header line to write: as uploaded, or again with the id `chooseId` gives. */
  private headerBytes(text: string, header: SessionHeader, newline: boolean): Buffer {
    const id = this.chooseId(header.id);
    this.sessionId = id;
    const end = newline ? '\n' : '';
    if (id === header.id) return Buffer.from(`${text}${end}`);
    this.replacedId = header.id;
    const rewritten = { ...header, id };
    this.header = rewritten;
    return Buffer.from(`${JSON.stringify(rewritten)}${end}`);
  }

  private checkEntry(text: string, last = false): void {
    if (text.trim() === '') return;
    const parsed = parseLine(text);
    if (this.olderVersion) {
      if (parsed.kind === 'bad' && parsed.value === undefined) this.refuseLine(parsed.reason);
      return;
    }
    switch (parsed.kind) {
      case 'header':
        return; // pi ignores a second header, and so does Arbor
      case 'bad':
        return this.refuseLine(
          last ? `${parsed.reason} (an incomplete last line?)` : parsed.reason,
        );
      case 'foreign':
        return this.refuseLine(parsed.reason);
      case 'entry':
        this.parents.set(parsed.entry.id, parsed.entry.parentId, this.lineNo);
    }
  }

  private refuseLine(reason: string): never {
    throw new SessionImportError(
      `The session file's line ${this.lineNo} is not a valid entry: ${reason}.`,
      'invalid',
    );
  }

  private checkTree(): void {
    const cycle = findParentCycle(this.parents);
    if (!cycle) return;
    const where = cycle.map((link) => `${link.id} (line ${link.line})`).join(' → ');
    throw new SessionImportError(
      `The entries' parents form a cycle, which no tree can show: ${where} → ${cycle[0]!.id}.`,
      'invalid',
    );
  }
}
