import { z } from 'zod';
import { defineTool, textResult } from './tool-args.js';
import { globMatcher, walkFiles } from './file-walk.js';
import { fstat, missingAs } from './workspace-files.js';
import { openInWorkspace, type WorkspaceEntry } from './workspace-path.js';

const DEFAULT_LIMIT = 1000;

/** How long find matches names before it lets the event loop run the server's other work. */
const SLICE_MS = 10;

const schema = z.strictObject({
  pattern: z
    .string()
    .min(1)
    .describe("Glob pattern to match files, e.g. '*.ts', '**/*.json', or 'src/**/*.spec.ts'"),
  path: z.string().optional().describe('Directory to search in (default: the workspace)'),
  limit: z
    .number()
    .int()
    .positive()
    .optional()
    .describe(`Maximum number of results (default: ${DEFAULT_LIMIT})`),
});

/** find: files whose path matches a glob, relative to the searched directory. */
export function createFindTool(root: string) {
  return defineTool({
    name: 'find',
    description: `Search for files by glob pattern. Returns matching file paths relative to the search directory. Skips .git and node_modules. Output is limited to ${DEFAULT_LIMIT} results by default.`,
    schema,
    async execute(args, { signal }) {
      let dir: WorkspaceEntry;
      try {
        dir = openInWorkspace(root, args.path ?? '.');
      } catch (error) {
        throw missingAs(error, (shown) => `Not a directory: ${shown}`);
      }
      const matches = globMatcher(args.pattern);
      const limit = args.limit ?? DEFAULT_LIMIT;
      const found: string[] = [];
      let more = false;
      try {
        if (!(await fstat(dir.fd)).isDirectory()) throw new Error(`Not a directory: ${dir.shown}`);
        let sliceStart = performance.now();
        for await (const entry of walkFiles(dir.fd, signal)) {
          // A walk's steps are microtasks: without a pause, a big tree would hold the loop.
          if (performance.now() - sliceStart > SLICE_MS) {
            await new Promise((resolve) => setImmediate(resolve));
            sliceStart = performance.now();
          }
          if (entry.isDirectory || !matches(entry.relative)) continue;
          if (found.length >= limit) {
            more = true;
            break;
          }
          found.push(entry.relative);
        }
      } finally {
        dir.close();
      }
      if (found.length === 0) return textResult('No files found matching pattern');
      let text = found.join('\n');
      if (more)
        text += `\n\n[${limit} results limit reached. Use limit=${limit * 2} for more, or refine pattern]`;
      return textResult(text);
    },
  });
}
