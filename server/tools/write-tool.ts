import fs from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool, textResult } from './tool-args.js';
import { displayPath, resolveInWorkspace } from './workspace-path.js';

const schema = z.strictObject({
  path: z.string().describe('Path to the file to write (relative to the workspace)'),
  content: z.string().describe('Content to write to the file'),
});

/** write: creates or overwrites a file inside the workspace, creating parent directories. */
export function createWriteTool(root: string) {
  return defineTool({
    name: 'write',
    description:
      "Write content to a file. Creates the file if it doesn't exist, overwrites if it does. Automatically creates parent directories.",
    schema,
    async execute(args, { signal }) {
      const file = resolveInWorkspace(root, args.path);
      await fs.mkdir(path.dirname(file), { recursive: true });
      // The directory chain may have changed under us; check the final parent again.
      resolveInWorkspace(root, path.relative(root, file));
      await fs.writeFile(file, args.content, { encoding: 'utf8', signal });
      return textResult(
        `Successfully wrote ${Buffer.byteLength(args.content, 'utf8')} bytes to ${displayPath(root, file)}`,
      );
    },
  });
}
