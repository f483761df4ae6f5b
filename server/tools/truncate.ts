/*
 * Output limits shared by the tools, with pi's numbers: 2,000 lines or 50 KB, whichever comes
 * first. `truncateHead` keeps the beginning (file reads), `truncateTail` the end (command output).
 */

export const DEFAULT_MAX_LINES = 2000;
export const DEFAULT_MAX_BYTES = 50 * 1024;

export interface Truncation {
  content: string;
  truncated: boolean;
  truncatedBy: 'lines' | 'bytes' | null;
  totalLines: number;
  totalBytes: number;
  outputLines: number;
  outputBytes: number;
  lastLinePartial: boolean;
  firstLineExceedsLimit: boolean;
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes}B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)}KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)}MB`;
}

function untruncated(content: string, lines: number, bytes: number): Truncation {
  return {
    content,
    truncated: false,
    truncatedBy: null,
    totalLines: lines,
    totalBytes: bytes,
    outputLines: lines,
    outputBytes: bytes,
    lastLinePartial: false,
    firstLineExceedsLimit: false,
  };
}

export function truncateHead(
  content: string,
  maxLines = DEFAULT_MAX_LINES,
  maxBytes = DEFAULT_MAX_BYTES,
): Truncation {
  const totalBytes = Buffer.byteLength(content, 'utf8');
  const lines = content.split('\n');
  if (lines.length <= maxLines && totalBytes <= maxBytes)
    return untruncated(content, lines.length, totalBytes);
  if (Buffer.byteLength(lines[0] ?? '', 'utf8') > maxBytes)
    return {
      ...untruncated('', lines.length, totalBytes),
      truncated: true,
      truncatedBy: 'bytes',
      outputLines: 0,
      outputBytes: 0,
      firstLineExceedsLimit: true,
    };
  const kept: string[] = [];
  let bytes = 0;
  let by: 'lines' | 'bytes' = 'lines';
  for (let i = 0; i < lines.length && i < maxLines; i++) {
    const size = Buffer.byteLength(lines[i]!, 'utf8') + (i > 0 ? 1 : 0);
    if (bytes + size > maxBytes) {
      by = 'bytes';
      break;
    }
    kept.push(lines[i]!);
    bytes += size;
  }
  const out = kept.join('\n');
  return {
    ...untruncated(out, lines.length, totalBytes),
    truncated: true,
    truncatedBy: by,
    outputLines: kept.length,
    outputBytes: Buffer.byteLength(out, 'utf8'),
  };
}

export function truncateTail(
  content: string,
  maxLines = DEFAULT_MAX_LINES,
  maxBytes = DEFAULT_MAX_BYTES,
): Truncation {
  const totalBytes = Buffer.byteLength(content, 'utf8');
  const lines = content.split('\n');
  if (lines.length <= maxLines && totalBytes <= maxBytes)
    return untruncated(content, lines.length, totalBytes);
  const kept: string[] = [];
  let bytes = 0;
  let by: 'lines' | 'bytes' = 'lines';
  let partial = false;
  for (let i = lines.length - 1; i >= 0 && kept.length < maxLines; i--) {
    const line = lines[i]!;
    const size = Buffer.byteLength(line, 'utf8') + (kept.length > 0 ? 1 : 0);
    if (bytes + size > maxBytes) {
      by = 'bytes';
      if (kept.length === 0) {
        const buffer = Buffer.from(line, 'utf8');
        let start = buffer.length - maxBytes;
        while (start < buffer.length && (buffer[start]! & 0xc0) === 0x80) start++;
        kept.unshift(buffer.subarray(start).toString('utf8'));
        partial = true;
      }
      break;
    }
    kept.unshift(line);
    bytes += size;
  }
  const out = kept.join('\n');
  return {
    ...untruncated(out, lines.length, totalBytes),
    truncated: true,
    truncatedBy: by,
    outputLines: kept.length,
    outputBytes: Buffer.byteLength(out, 'utf8'),
    lastLinePartial: partial,
  };
}
