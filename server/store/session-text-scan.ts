import { openRegularFile } from './regular-file.js';

/*
 * A read-only pass over a session file's messages for search: the file is streamed in chunks
 * (never read whole), each line is offered to `mayMatch` as raw JSON text before it is parsed, and
 * only lines that may match are parsed. It never writes, locks or migrates: a session being written
 * is read up to its last complete line. Older files without entry ids (pi's v1) give no entries.
 */

export type SearchableRole = 'user' | 'assistant' | 'toolResult' | 'bashExecution';

/** One message's searchable text: prompts, the assistant's text (not thinking, not tool calls), tool output. */
export interface MessageText {
  entryId: string;
  role: SearchableRole;
  text: string;
}

export interface TextScanOptions {
  /** Bytes of the file read at most; the rest is left unread (`cut`). */
  maxBytes: number;
  /** Lines longer than this are skipped unparsed (`skippedLines`). */
  maxLineBytes: number;
  /** A cheap test of the raw line; false skips the line without parsing it. */
  mayMatch(line: string): boolean;
  signal?: AbortSignal;
}

export interface TextScanSummary {
  bytesRead: number;
  /** The byte budget ended the scan before the end of the file. */
  cut: boolean;
  skippedLines: number;
}

const CHUNK = 1 << 20;
const NEWLINE = 0x0a;

function textOfBlocks(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const parts: string[] = [];
  for (const block of content as unknown[]) {
    if (block === null || typeof block !== 'object') continue;
    const { type, text } = block as { type?: unknown; text?: unknown };
    if (type === 'text' && typeof text === 'string') parts.push(text);
  }
  return parts.join('\n');
}

/** The searchable text of one parsed line, or undefined for lines that are not such messages. */
export function messageTextOfLine(value: unknown): MessageText | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const entry = value as { type?: unknown; id?: unknown; message?: unknown };
  if (entry.type !== 'message' || typeof entry.id !== 'string') return undefined;
  const message = entry.message as
    { role?: unknown; content?: unknown; command?: unknown; output?: unknown } | null | undefined;
  if (!message || typeof message !== 'object') return undefined;
  const role = message.role;
  // An editor `!command`: its command line and its output, as the chat shows them.
  if (role === 'bashExecution') {
    const command = typeof message.command === 'string' ? message.command : '';
    const output = typeof message.output === 'string' ? message.output : '';
    const text = `$ ${command}\n${output}`;
    return command || output ? { entryId: entry.id, role, text } : undefined;
  }
  if (role !== 'user' && role !== 'assistant' && role !== 'toolResult') return undefined;
  const text = textOfBlocks(message.content);
  return text ? { entryId: entry.id, role, text } : undefined;
}

/**
 * Calls `onMessage` for every message line of `file` that `mayMatch` lets through, in file order,
 * until the file, the byte budget or `onMessage` (returning false) ends the scan.
 */
export async function scanSessionText(
  file: string,
  options: TextScanOptions,
  onMessage: (message: MessageText) => boolean | void,
): Promise<TextScanSummary> {
  const summary: TextScanSummary = { bytesRead: 0, cut: false, skippedLines: 0 };
  const handle = await openRegularFile(file);
  const stream = handle.createReadStream({ highWaterMark: CHUNK });
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let overlong = false;
  let stop = false;
  const line = (bytes: Buffer): void => {
    const text = bytes.toString('utf8');
    if (!options.mayMatch(text)) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    const message = messageTextOfLine(value);
    if (message && onMessage(message) === false) stop = true;
  };
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (options.signal?.aborted) break;
      let piece = chunk;
      if (summary.bytesRead + piece.length > options.maxBytes) {
        piece = piece.subarray(0, options.maxBytes - summary.bytesRead);
        summary.cut = true;
      }
      summary.bytesRead += piece.length;
      let start = 0;
      for (;;) {
        const newline = piece.indexOf(NEWLINE, start);
        const end = newline === -1 ? piece.length : newline;
        if (!overlong) {
          if (pendingBytes + end - start > options.maxLineBytes) {
            overlong = true;
            pending = [];
            pendingBytes = 0;
          } else if (end > start) {
            pending.push(piece.subarray(start, end));
            pendingBytes += end - start;
          }
        }
        if (newline === -1) break;
        if (overlong) summary.skippedLines++;
        else if (pendingBytes > 0)
          line(pending.length === 1 ? pending[0]! : Buffer.concat(pending));
        pending = [];
        pendingBytes = 0;
        overlong = false;
        if (stop) break;
        start = newline + 1;
      }
      if (stop || summary.cut) break;
    }
    // A last line without its newline is complete only at the end of the file.
    if (!stop && !summary.cut && !overlong && pendingBytes > 0 && !options.signal?.aborted)
      line(Buffer.concat(pending));
  } finally {
    stream.destroy();
  }
  return summary;
}
