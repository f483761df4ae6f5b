import fs from 'node:fs';
import { z } from 'zod';
import { defineTool, textResult } from './tool-args.js';
import { fstat, missingAs, readFdText, replaceFileText } from './workspace-files.js';
import { describeErrno, openInWorkspace, type WorkspaceEntry } from './workspace-path.js';

const schema = z.strictObject({
  path: z.string().describe('Path to the file to edit (relative to the workspace)'),
  edits: z
    .array(
      z.strictObject({
        oldText: z.string().describe('Exact text to replace; must occur exactly once in the file'),
        newText: z.string().describe('Replacement text'),
      }),
    )
    .min(1, 'edits must contain at least one replacement')
    .describe('One or more exact replacements, each matched against the original file'),
});

/** Accepts pi's older single-edit shape `{path, oldText, newText}` too. */
function prepare(raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object') return raw;
  const args = { ...(raw as Record<string, unknown>) };
  if (typeof args.edits === 'string') {
    try {
      args.edits = JSON.parse(args.edits);
    } catch {
      // left as is: validation explains the problem
    }
  }
  if (typeof args.oldText === 'string' && typeof args.newText === 'string') {
    const edits = Array.isArray(args.edits) ? [...(args.edits as unknown[])] : [];
    edits.push({ oldText: args.oldText, newText: args.newText });
    delete args.oldText;
    delete args.newText;
    args.edits = edits;
  }
  return args;
}

function occurrences(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1))
    found.push(at);
  return found;
}

/**
 * edit: exact, unique replacements; a missing, ambiguous or overlapping edit changes nothing. The
 * file is read through the descriptor openInWorkspace opened and replaced atomically within its
 * held parent directory (workspace-files.ts).
 */
export function createEditTool(root: string) {
  return defineTool({
    name: 'edit',
    description:
      'Edit a file by exact text replacement. Each edits[].oldText must match the file exactly (including whitespace) and occur exactly once; give more surrounding context to make it unique.',
    schema,
    prepare,
    async execute(args, { signal }) {
      let file: WorkspaceEntry;
      try {
        // Opened for writing, so a file the server may not write is refused before any change.
        file = openInWorkspace(root, args.path, { flags: fs.constants.O_RDWR });
      } catch (error) {
        throw missingAs(error, (shown) => `File not found: ${shown}`);
      }
      try {
        return await editOpened(file, args.edits, signal);
      } finally {
        file.close();
      }
    },
  });
}

async function editOpened(
  file: WorkspaceEntry,
  edits: { oldText: string; newText: string }[],
  signal: AbortSignal,
) {
  const shown = file.shown;
  const stat = await fstat(file.fd);
  if (stat.isDirectory()) throw new Error(`Cannot read ${shown}: it is a directory`);
  if (!stat.isFile()) throw new Error(`Cannot read ${shown}: it is not a regular file`);
  const original = await readFdText(file.fd, { encoding: 'utf8', signal }).catch(
    (error: unknown) => {
      throw new Error(`Cannot read ${shown}: ${describeErrno(error)}`, { cause: error });
    },
  );
  const single = edits.length === 1;
  const spans = edits.map((edit, index) => {
    const label = single ? 'the text' : `edits[${index}]`;
    if (edit.oldText.length === 0)
      throw new Error(
        `${single ? 'oldText' : `edits[${index}].oldText`} must not be empty in ${shown}.`,
      );
    const found = occurrences(original, edit.oldText);
    if (found.length === 0)
      throw new Error(
        `Could not find ${label} in ${shown}. The old text must match exactly including all whitespace and newlines.`,
      );
    if (found.length > 1)
      throw new Error(
        `Found ${found.length} occurrences of ${label} in ${shown}. The text must be unique. Please provide more context to make it unique.`,
      );
    return {
      index,
      start: found[0]!,
      end: found[0]! + edit.oldText.length,
      newText: edit.newText,
    };
  });
  spans.sort((a, b) => a.start - b.start);
  for (let i = 1; i < spans.length; i++)
    if (spans[i]!.start < spans[i - 1]!.end)
      throw new Error(
        `edits[${spans[i - 1]!.index}] and edits[${spans[i]!.index}] overlap in ${shown}. Merge them into one edit or target disjoint regions.`,
      );
  let result = '';
  let cursor = 0;
  for (const span of spans) {
    result += original.slice(cursor, span.start) + span.newText;
    cursor = span.end;
  }
  result += original.slice(cursor);
  if (result === original)
    throw new Error(`No changes made to ${shown}: the replacements equal the originals.`);
  await replaceFileText(file, result, signal);
  return textResult(`Successfully replaced ${spans.length} block(s) in ${shown}.`);
}
