import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, textResult } from './tool-args.js';
import { globMatcher, walkFiles } from './file-walk.js';
import { displayPath, resolveInWorkspace } from './workspace-path.js';

const DEFAULT_LIMIT = 100;
const MAX_LINE_CHARS = 500;
const MAX_FILE_BYTES = 10 * 1024 * 1024;

const schema = z.strictObject({
  pattern: z.string().min(1).describe('Search pattern (regex or literal string)'),
  path: z.string().optional().describe('Directory or file to search (default: the workspace)'),
  glob: z
    .string()
    .optional()
    .describe("Filter files by glob pattern, e.g. '*.ts' or '**/*.spec.ts'"),
  ignoreCase: z.boolean().optional().describe('Case-insensitive search (default: false)'),
  literal: z
    .boolean()
    .optional()
    .describe('Treat pattern as literal string instead of regex (default: false)'),
  context: z
    .number()
    .int()
    .nonnegative()
    .optional()
    .describe('Lines to show before and after each match (default: 0)'),
  limit: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(`Maximum number of matches (default: ${DEFAULT_LIMIT})`),
});

function clip(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}... [truncated]` : line;
}

/** grep: lines matching a pattern, as `file:line: text`, skipping binary files. */
export function createGrepTool(root: string) {
  return defineTool({
    name: 'grep',
    description: `Search file contents for a pattern. Returns matching lines with file paths and line numbers. Skips .git, node_modules and binary files. Output is limited to ${DEFAULT_LIMIT} matches by default; long lines are cut at ${MAX_LINE_CHARS} characters.`,
    schema,
    async execute(args, { signal }) {
      const target = resolveInWorkspace(root, args.path ?? '.');
      const stat = await fs.stat(target).catch(() => undefined);
      if (!stat) throw new Error(`Path not found: ${displayPath(root, target)}`);
      let regex: RegExp;
      try {
        const source = args.literal
          ? args.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
          : args.pattern;
        regex = new RegExp(source, args.ignoreCase ? 'i' : '');
      } catch (error) {
        throw new Error(`Invalid regular expression: ${(error as Error).message}`, {
          cause: error,
        });
      }
      const filter = args.glob ? globMatcher(args.glob) : () => true;
      const limit = args.limit ?? DEFAULT_LIMIT;
      const context = args.context ?? 0;
      const out: string[] = [];
      let matches = 0;
      let limited = false;
      const files: { file: string; shown: string }[] = stat.isDirectory()
        ? []
        : [{ file: target, shown: displayPath(root, target) }];
      if (stat.isDirectory())
        for await (const entry of walkFiles(target, signal))
          if (!entry.isDirectory && filter(entry.relative))
            files.push({
              file: entry.file,
              shown: displayPath(root, path.join(target, entry.relative)),
            });
      for (const { file, shown } of files) {
        if (limited) break;
        // Links are searched only when they stay inside the workspace.
        let real: string;
        try {
          real = resolveInWorkspace(root, file);
        } catch {
          continue;
        }
        const info = await fs.stat(real).catch(() => undefined);
        if (!info?.isFile() || info.size > MAX_FILE_BYTES) continue;
        const buffer = await fs.readFile(real);
        if (buffer.subarray(0, 8000).includes(0)) continue;
        const lines = buffer.toString('utf8').split('\n');
        let lastPrinted = -1;
        for (let i = 0; i < lines.length; i++) {
          if (!regex.test(lines[i]!)) continue;
          if (matches >= limit) {
            limited = true;
            break;
          }
          matches++;
          const from = Math.max(0, i - context, lastPrinted + 1);
          const to = Math.min(lines.length - 1, i + context);
          if (context > 0 && lastPrinted >= 0 && from > lastPrinted + 1) out.push('--');
          for (let j = from; j <= to; j++)
            out.push(
              j === i
                ? `${shown}:${j + 1}: ${clip(lines[j]!)}`
                : `${shown}-${j + 1}- ${clip(lines[j]!)}`,
            );
          lastPrinted = to;
        }
      }
      if (matches === 0) return textResult('No matches found');
      let text = out.join('\n');
      if (limited)
        text += `\n\n[${limit} matches limit reached. Use limit=${limit * 2} for more, or refine pattern]`;
      return textResult(text);
    },
  });
}
