import fs from 'node:fs';
import path from 'node:path';

/*
 * Confinement of file tools to a workspace by real path. The target (or, when it does not exist
 * yet, its nearest existing parent) is resolved through every symlink and must lie inside the
 * workspace's own real path, so `..`, absolute paths and symlinks cannot lead outside. Tools then
 * act on the resolved path, never on the string the model wrote.
 */

export class WorkspaceEscapeError extends Error {
  readonly code = 'outside_workspace';
}

export function realWorkspace(workspace: string): string {
  return fs.realpathSync(path.resolve(workspace));
}

function isInside(root: string, candidate: string): boolean {
  return (
    candidate === root || candidate.startsWith(root.endsWith(path.sep) ? root : root + path.sep)
  );
}

/**
 * Resolves a path the model gave (relative to the workspace, or absolute) to a real path inside
 * the workspace. Throws `WorkspaceEscapeError` when it would lead outside.
 */
export function resolveInWorkspace(root: string, input: string): string {
  if (input.includes('\0')) throw new WorkspaceEscapeError(`Path "${input}" contains a NUL byte`);
  const expanded = input === '' ? '.' : input;
  const lexical = path.resolve(root, expanded);
  const rest: string[] = [];
  let existing = lexical;
  for (;;) {
    try {
      const real = fs.realpathSync(existing);
      const full = rest.length > 0 ? path.join(real, ...rest.reverse()) : real;
      if (!isInside(root, full))
        throw new WorkspaceEscapeError(`Path "${input}" is outside the workspace`);
      return full;
    } catch (error) {
      if (error instanceof WorkspaceEscapeError) throw error;
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
      // A dangling symlink exists as a link but not as a target: refuse to write through it.
      try {
        if (fs.lstatSync(existing).isSymbolicLink())
          throw new WorkspaceEscapeError(`Path "${input}" is a dangling symbolic link`);
      } catch (lstatError) {
        if (lstatError instanceof WorkspaceEscapeError) throw lstatError;
      }
      const parent = path.dirname(existing);
      if (parent === existing) throw new WorkspaceEscapeError(`Path "${input}" cannot be resolved`);
      rest.push(path.basename(existing));
      existing = parent;
    }
  }
}

/** The path as the model should see it in results: relative to the workspace. */
export function displayPath(root: string, real: string): string {
  const relative = path.relative(root, real);
  return relative === '' ? '.' : relative;
}
