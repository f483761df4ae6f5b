import type { AgentMessage } from '../../shared/messages.js';
import type { FileOperationsDetails } from '../../shared/session-entries.js';

/*
 * Which files a stretch of conversation read and changed, taken from the `path` argument of the
 * read, write and edit tools. Summaries carry these lists cumulatively, so a file touched before
 * three compactions is still named after the fourth.
 */

export interface FileOperations {
  read: Set<string>;
  written: Set<string>;
  edited: Set<string>;
}

export function createFileOperations(): FileOperations {
  return { read: new Set(), written: new Set(), edited: new Set() };
}

/** Records the files named by the read/write/edit tool calls of an assistant message. */
export function collectFileOperations(message: AgentMessage, ops: FileOperations): void {
  if (message.role !== 'assistant') return;
  for (const block of message.content) {
    if (block.type !== 'toolCall') continue;
    const path = block.arguments['path'];
    if (typeof path !== 'string' || path.length === 0) continue;
    if (block.name === 'read') ops.read.add(path);
    else if (block.name === 'write') ops.written.add(path);
    else if (block.name === 'edit') ops.edited.add(path);
  }
}

/**
 * Adds the lists stored in an earlier summary's `details`. Anything that is not a pair of string
 * arrays is ignored: details written by other tools may have any shape.
 */
export function mergeStoredFileLists(details: unknown, ops: FileOperations): void {
  if (typeof details !== 'object' || details === null) return;
  const { readFiles, modifiedFiles } = details as Record<string, unknown>;
  if (Array.isArray(readFiles)) {
    for (const file of readFiles) if (typeof file === 'string') ops.read.add(file);
  }
  if (Array.isArray(modifiedFiles)) {
    for (const file of modifiedFiles) if (typeof file === 'string') ops.edited.add(file);
  }
}

/** Sorted lists: files only read, and files written or edited. */
export function computeFileLists(ops: FileOperations): FileOperationsDetails {
  const modified = new Set([...ops.edited, ...ops.written]);
  const readFiles = [...ops.read].filter((file) => !modified.has(file)).sort();
  return { readFiles, modifiedFiles: [...modified].sort() };
}

/** The lists as the tags appended to a summary, preceded by a blank line; empty when both are. */
export function formatFileOperations(readFiles: string[], modifiedFiles: string[]): string {
  const sections: string[] = [];
  if (readFiles.length > 0) sections.push(`<read-files>\n${readFiles.join('\n')}\n</read-files>`);
  if (modifiedFiles.length > 0)
    sections.push(`<modified-files>\n${modifiedFiles.join('\n')}\n</modified-files>`);
  return sections.length === 0 ? '' : `\n\n${sections.join('\n\n')}`;
}
