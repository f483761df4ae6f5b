import fs from 'node:fs';
import { z } from 'zod';
import { defineTool, textResult } from './tool-args.js';
import { fstat, writeFdText } from './workspace-files.js';
import { openInWorkspace } from './workspace-path.js';

const schema = z.strictObject({
  path: z.string().describe('Path to the file to write (relative to the workspace)'),
  content: z.string().describe('Content to write to the file'),
});

/**
 * write: creates or overwrites a file inside the workspace, creating parent directories. Each
 * missing directory is made in its held parent and the file is opened (or created, O_EXCL) there
 * with O_NOFOLLOW, then written through that descriptor.
 */
export function createWriteTool(root: string) {
  return defineTool({
    name: 'write',
    description:
      "Write content to a file. Creates the file if it doesn't exist, overwrites if it does. Automatically creates parent directories.",
    schema,
    async execute(args, { signal }) {
      const { O_WRONLY, O_TRUNC } = fs.constants;
      const file = openInWorkspace(root, args.path, { create: true, flags: O_WRONLY | O_TRUNC });
      try {
        if (!(await fstat(file.fd)).isFile())
          throw new Error(`Cannot write ${file.shown}: it is not a regular file`);
        await writeFdText(file.fd, args.content, { encoding: 'utf8', signal });
      } finally {
        file.close();
      }
      return textResult(
        `Successfully wrote ${Buffer.byteLength(args.content, 'utf8')} bytes to ${file.shown}`,
      );
    },
  });
}
