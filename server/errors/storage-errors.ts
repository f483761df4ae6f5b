/*
 * File system failures that mean "this cannot be saved", named as the protocol names them, with
 * the words a client is shown (Node's own messages name paths, so they stay in the log). Here, at
 * the bottom of the house, so the agent and the error catalog both build on it (decision 053).
 */

export const STORAGE_MESSAGES = {
  disk_full:
    "The server's disk is full: this change could not be saved. Everything saved before is kept; free space on the server and try again.",
  read_only:
    "The server's data folder is read-only: sessions can be read but not changed. Make the folder writable to change them.",
} as const;

export type StorageProblem = keyof typeof STORAGE_MESSAGES;

const PROBLEMS: Record<string, StorageProblem> = {
  ENOSPC: 'disk_full',
  EDQUOT: 'disk_full',
  EROFS: 'read_only',
  EACCES: 'read_only',
};

/** `disk_full` or `read_only` for a write that failed for want of space or permission. */
export function storageProblem(error: unknown): StorageProblem | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && Object.hasOwn(PROBLEMS, code) ? PROBLEMS[code] : undefined;
}
