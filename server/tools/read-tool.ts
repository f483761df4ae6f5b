import path from 'node:path';
import { z } from 'zod';
import type { ToolResultValue } from './tool-types.js';
import { defineTool, textResult } from './tool-args.js';
import { DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, formatSize, truncateHead } from './truncate.js';
import { fstat, missingAs, readFd } from './workspace-files.js';
import { readLineWindow } from './read-window.js';
import { openInWorkspace, type WorkspaceEntry } from './workspace-path.js';

const IMAGE_TYPES: Record<string, string> = {
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
};

const schema = z.strictObject({
  path: z
    .string()
    .describe('Path to the file to read (relative to the workspace, or absolute inside it)'),
  offset: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('Line number to start reading from (1-indexed)'),
  limit: z.number().int().positive().optional().describe('Maximum number of lines to read'),
});

const MAX_IMAGE_BYTES = 20 * 1024 * 1024;

/** read: a line range of a text file (truncated with a notice), or an image as image content. */
export function createReadTool(root: string) {
  return defineTool({
    name: 'read',
    description: `Read the contents of a file. Supports text files and images (jpg, png, gif, webp). Images are sent as attachments. For text files, output is truncated to ${DEFAULT_MAX_LINES} lines or ${DEFAULT_MAX_BYTES / 1024}KB (whichever is hit first). Use offset/limit for large files. When you need the full file, continue with offset until complete.`,
    schema,
    async execute(args, { signal }) {
      let file: WorkspaceEntry;
      try {
        file = openInWorkspace(root, args.path);
      } catch (error) {
        throw missingAs(error, (shown) => `File not found: ${shown}`);
      }
      try {
        return await readOpened(file, args, signal);
      } finally {
        file.close();
      }
    },
  });
}

async function readOpened(
  file: WorkspaceEntry,
  args: z.infer<typeof schema>,
  signal: AbortSignal,
): Promise<ToolResultValue> {
  const shown = file.shown;
  const stat = await fstat(file.fd);
  if (stat.isDirectory()) throw new Error(`${shown} is a directory; use ls to list it`);
  if (!stat.isFile()) throw new Error(`${shown} is not a regular file`);
  const mime = IMAGE_TYPES[path.extname(file.name).toLowerCase()];
  if (mime) {
    // Read whole, so bounded: a huge file named .png would otherwise be held twice over.
    if (stat.size > MAX_IMAGE_BYTES)
      throw new Error(
        `${shown} is ${formatSize(stat.size)}, too large to send as an image (at most ${formatSize(MAX_IMAGE_BYTES)})`,
      );
    const data = await readFd(file.fd, { signal });
    return {
      content: [
        { type: 'text', text: `Read image file [${mime}]` },
        { type: 'image', data: data.toString('base64'), mimeType: mime },
      ],
    };
  }
  const start = (args.offset ?? 1) - 1;
  const wanted = args.limit !== undefined ? start + args.limit : undefined;
  const window = await readLineWindow(file.fd, start, wanted, signal);
  const totalLines = window.totalLines;
  if (start >= totalLines)
    throw new Error(`Offset ${args.offset} is beyond end of file (${totalLines} lines total)`);
  const end = wanted !== undefined ? Math.min(wanted, totalLines) : totalLines;
  const truncation = {
    ...truncateHead(window.selected),
    totalLines: window.selectedLines,
    totalBytes: window.selectedBytes,
  };
  const first = start + 1;
  if (window.firstLineBytes > DEFAULT_MAX_BYTES) {
    const size = formatSize(window.firstLineBytes);
    return textResult(
      `[Line ${first} is ${size}, exceeds ${formatSize(DEFAULT_MAX_BYTES)} limit. Use bash: sed -n '${first}p' ${shown} | head -c ${DEFAULT_MAX_BYTES}]`,
      { truncation: { ...truncation, firstLineExceedsLimit: true } },
    );
  }
  let output = truncation.content;
  if (truncation.truncated) {
    const last = first + truncation.outputLines - 1;
    const limitNote =
      truncation.truncatedBy === 'bytes' ? ` (${formatSize(DEFAULT_MAX_BYTES)} limit)` : '';
    output += `\n\n[Showing lines ${first}-${last} of ${totalLines}${limitNote}. Use offset=${last + 1} to continue.]`;
    return textResult(output, { truncation });
  }
  if (end < totalLines)
    output += `\n\n[${totalLines - end} more lines in file. Use offset=${end + 1} to continue.]`;
  return textResult(output);
}
