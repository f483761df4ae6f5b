import fs from 'node:fs';
import { promisify } from 'node:util';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES } from './truncate.js';

/*
 * The lines a read asks for, taken from the file in chunks, so that memory stays about one chunk
 * plus what the answer can show (2,000 lines or 50 KB), however large the file. Reading it whole,
 * as before, held all of it twice (bytes and string): a command that made a few sparse 1 GiB files
 * (`truncate -s 1G`, no disk used) and read them at once could exhaust the server's memory, and a
 * file over 512 MB could not be read at all ("Cannot create a string longer than …").
 */

const readChunk = promisify(fs.read);
const CHUNK_BYTES = 1024 * 1024;
const NEWLINE = 0x0a;

export interface LineWindow {
  /** Lines in the file, as `text.split('\n').length` counts them. */
  totalLines: number;
  /** The start of the lines asked for, joined by '\n'; at least enough to truncate exactly. */
  selected: string;
  /** Lines and UTF-8 bytes of everything asked for (not only what `selected` holds). */
  selectedLines: number;
  selectedBytes: number;
  /** Bytes of the first line asked for. */
  firstLineBytes: number;
}

/**
 * Reads lines `start` (0-based) up to `end` (exclusive; all when undefined) of the file `fd`.
 * `selected` holds whole lines until the answer's limits are passed, then stops growing.
 */
export async function readLineWindow(
  fd: number,
  start: number,
  end: number | undefined,
  signal: AbortSignal,
): Promise<LineWindow> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  /** Lines of the window begun after its first one. */
  let keptLines = 0;
  let full = false;
  let line = 0;
  let selectedBytes = 0;
  let firstLineBytes = 0;
  const inWindow = () => line >= start && (end === undefined || line < end);
  /** Takes bytes of the current line (and the '\n' before it, if it is not the first). */
  const take = (piece: Buffer) => {
    if (!inWindow()) return;
    selectedBytes += piece.length;
    if (line === start) firstLineBytes += piece.length;
    if (full) return;
    const room = DEFAULT_MAX_BYTES + 1 - keptBytes;
    kept.push(piece.length > room ? piece.subarray(0, room) : Buffer.from(piece));
    keptBytes += Math.min(piece.length, room);
    if (keptBytes > DEFAULT_MAX_BYTES) full = true;
  };
  const buffer = Buffer.alloc(CHUNK_BYTES);
  let position = 0;
  for (;;) {
    if (signal.aborted) throw new Error('Read aborted');
    const { bytesRead } = await readChunk(fd, buffer, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) break;
    position += bytesRead;
    let from = 0;
    for (let at = buffer.indexOf(NEWLINE, 0); at !== -1 && at < bytesRead;) {
      take(buffer.subarray(from, at));
      line++;
      if (inWindow()) {
        if (line > start) take(Buffer.from([NEWLINE]));
        if (++keptLines > DEFAULT_MAX_LINES) full = true;
      }
      from = at + 1;
      at = buffer.indexOf(NEWLINE, from);
    }
    take(buffer.subarray(from, bytesRead));
  }
  const totalLines = line + 1;
  const last = end === undefined ? totalLines : Math.min(end, totalLines);
  return {
    totalLines,
    selected: Buffer.concat(kept).toString('utf8'),
    selectedLines: Math.max(0, last - start),
    selectedBytes,
    firstLineBytes,
  };
}
