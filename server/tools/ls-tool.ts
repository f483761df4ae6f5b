import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, textResult } from './tool-args.js';
import { fstat, missingAs } from './workspace-files.js';
import { fdPath, openInWorkspace, type WorkspaceEntry } from './workspace-path.js';

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

/**
 * ls: a directory's entries, sorted, directories marked with a trailing slash. The directory is
 * read through the descriptor openInWorkspace held; a link is marked as a directory when it
 * leads to one inside the workspace.
 */
export function createLsTool(root: string) {
  return defineTool({
    name: 'ls',
    description: `List directory contents. Entries are sorted alphabetically; directories end with '/'. Includes dotfiles. Output is limited to ${DEFAULT_LIMIT} entries by default.`,
    schema,
    async execute(args) {
      let dir: WorkspaceEntry;
      try {
        dir = openInWorkspace(root, args.path ?? '.');
      } catch (error) {
        throw missingAs(error, (shown) => `Path not found: ${shown}`);
      }
      let names: string[];
      try {
        if (!(await fstat(dir.fd)).isDirectory()) throw new Error(`Not a directory: ${dir.shown}`);
        const entries = await fs.readdir(fdPath(dir.fd), { withFileTypes: true });
        names = await Promise.all(
          entries.map(async (entry) => {
            const isDir = entry.isSymbolicLink()
              ? await leadsToDirectory(root, path.posix.join(dir.shown, entry.name))
              : entry.isDirectory();
            return isDir ? `${entry.name}/` : entry.name;
          }),
        );
      } finally {
        dir.close();
      }
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

/** Whether the link at `shown` leads to a directory inside the workspace. */
async function leadsToDirectory(root: string, shown: string): Promise<boolean> {
  let target: WorkspaceEntry;
  try {
    target = openInWorkspace(root, shown);
  } catch {
    return false;
  }
  try {
    return (await fstat(target.fd)).isDirectory();
  } finally {
    target.close();
  }
}
