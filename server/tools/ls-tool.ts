import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, textResult } from './tool-args.js';
import { displayPath, resolveInWorkspace } from './workspace-path.js';

const DEFAULT_LIMIT = 500;

const schema = z.strictObject({
  path: z.string().optional().describe('Directory to list (default: the workspace)'),
  limit: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(`Maximum number of entries (default: ${DEFAULT_LIMIT})`),
});

/** ls: a directory's entries, sorted, directories marked with a trailing slash. */
export function createLsTool(root: string) {
  return defineTool({
    name: 'ls',
    description: `List directory contents. Entries are sorted alphabetically; directories end with '/'. Includes dotfiles. Output is limited to ${DEFAULT_LIMIT} entries by default.`,
    schema,
    async execute(args) {
      const dir = resolveInWorkspace(root, args.path ?? '.');
      const shown = displayPath(root, dir);
      const stat = await fs.stat(dir).catch(() => undefined);
      if (!stat) throw new Error(`Path not found: ${shown}`);
      if (!stat.isDirectory()) throw new Error(`Not a directory: ${shown}`);
      const entries = await fs.readdir(dir, { withFileTypes: true });
      const names = await Promise.all(
        entries.map(async (entry) => {
          let isDir = entry.isDirectory();
          if (entry.isSymbolicLink())
            isDir =
              (await fs.stat(path.join(dir, entry.name)).catch(() => undefined))?.isDirectory() ??
              false;
          return isDir ? `${entry.name}/` : entry.name;
        }),
      );
      names.sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase()));
      const limit = args.limit ?? DEFAULT_LIMIT;
      if (names.length === 0) return textResult('(empty directory)');
      let text = names.slice(0, limit).join('\n');
      if (names.length > limit)
        text += `\n\n[${limit} entries limit reached. Use limit=${limit * 2} for more]`;
      return textResult(text);
    },
  });
}
