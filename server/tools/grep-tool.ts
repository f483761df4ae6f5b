import { z } from 'zod';
import { DEFAULT_GREP_TIME_BUDGET_MS, runGrepInWorker, type GrepRun } from './grep-runner.js';
import { MAX_LINE_CHARS } from './grep-search.js';
import { defineTool, textResult } from './tool-args.js';
import { DEFAULT_MAX_BYTES, formatSize, truncateHead } from './truncate.js';
import { fstat, missingAs } from './workspace-files.js';
import { openInWorkspace, type WorkspaceEntry } from './workspace-path.js';

const DEFAULT_LIMIT = 100;

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

export interface GrepToolOptions {
  /** Wall-clock budget of one search; the worker running it is terminated past it. */
  timeBudgetMs?: number;
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/**
 * grep: lines matching a pattern, as `file:line: text`, skipping binary files. The search runs
 * in a worker thread with a time budget (see grep-runner.ts): a pattern that backtracks
 * catastrophically ends as an error the model reads, with the matches found before it stopped,
 * and never stalls the server. Output: at most `limit` matches, lines cut at 500 characters,
 * 50 KB in all, each with pi's notice.
 */
export function createGrepTool(root: string, opts: GrepToolOptions = {}) {
  const budgetMs = opts.timeBudgetMs ?? DEFAULT_GREP_TIME_BUDGET_MS;
  return defineTool({
    name: 'grep',
    description: `Search file contents for a pattern. Returns matching lines with file paths and line numbers. Skips .git, node_modules and binary files. Output is limited to ${DEFAULT_LIMIT} matches or ${DEFAULT_MAX_BYTES / 1024}KB by default; long lines are cut at ${MAX_LINE_CHARS} characters. A search that takes longer than ${seconds(budgetMs)} is stopped.`,
    schema,
    async execute(args, { signal }) {
      // Checked here for the model's sake; the worker opens the path again, just as confined.
      let target: WorkspaceEntry;
      try {
        target = openInWorkspace(root, args.path ?? '.');
      } catch (error) {
        throw missingAs(error, (shown) => `Path not found: ${shown}`);
      }
      try {
        await fstat(target.fd);
      } finally {
        target.close();
      }
      const source = args.literal
        ? args.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
        : args.pattern;
      const flags = args.ignoreCase ? 'i' : '';
      try {
        new RegExp(source, flags);
      } catch (error) {
        throw new Error(`Invalid regular expression: ${(error as Error).message}`, {
          cause: error,
        });
      }
      const limit = args.limit ?? DEFAULT_LIMIT;
      const run = await runGrepInWorker(
        {
          root,
          target: target.shown,
          source,
          flags,
          ...(args.glob !== undefined ? { glob: args.glob } : {}),
          limit,
          context: args.context ?? 0,
        },
        { signal, budgetMs },
      );
      switch (run.outcome.type) {
        case 'aborted':
          throw new Error('Search aborted');
        case 'failed':
          throw new Error(`grep failed: ${run.outcome.message}`);
        case 'timeout': {
          let message = `grep stopped: the pattern took longer than ${seconds(budgetMs)} to match, so the search was cancelled. Simplify the pattern (nested quantifiers such as (a+)+ can take exponential time), narrow path or glob, or use literal=true.`;
          if (run.matches > 0)
            message += `\n\nMatches found before it stopped (the search is incomplete):\n${formatOutput(run, limit)}`;
          throw new Error(message);
        }
        case 'done':
          return textResult(run.matches === 0 ? 'No matches found' : formatOutput(run, limit));
      }
    },
  });
}

/** The match lines capped at 50 KB, followed by pi's notices for every limit that was hit. */
function formatOutput(run: GrepRun, limit: number): string {
  const truncation = truncateHead(run.lines.join('\n'), Number.MAX_SAFE_INTEGER);
  let text = truncation.content;
  const notices: string[] = [];
  if (run.limited)
    notices.push(
      `${limit} matches limit reached. Use limit=${limit * 2} for more, or refine pattern`,
    );
  if (truncation.truncated) notices.push(`${formatSize(DEFAULT_MAX_BYTES)} limit reached`);
  if (run.clipped)
    notices.push(
      `Some lines truncated to ${MAX_LINE_CHARS} chars. Use read tool to see full lines`,
    );
  if (notices.length > 0) text += `\n\n[${notices.join('. ')}]`;
  return text;
}
