import fs from 'node:fs/promises';
import path from 'node:path';

/*
 * Walks a directory tree for grep and find without leaving it: symbolic links are reported but
 * never followed, so a link cannot lead a search outside the workspace. `.git` and
 * `node_modules` are skipped, as the tools they stand in for (ripgrep, fd) skip them by default.
 */

const SKIPPED_DIRS = new Set(['.git', 'node_modules']);

export interface WalkEntry {
  /** Absolute path. */
  file: string;
  /** Relative to the walk's start, with `/` separators. */
  relative: string;
  isDirectory: boolean;
}

export async function* walkFiles(start: string, signal: AbortSignal): AsyncGenerator<WalkEntry> {
  const stack: string[] = [start];
  while (stack.length > 0) {
    if (signal.aborted) throw new Error('Search aborted');
    const dir = stack.pop()!;
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch {
      continue;
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const entry of entries) {
      const file = path.join(dir, entry.name);
      const relative = path.relative(start, file).split(path.sep).join('/');
      if (entry.isDirectory()) {
        if (SKIPPED_DIRS.has(entry.name)) continue;
        subdirs.push(file);
        yield { file, relative, isDirectory: true };
      } else if (entry.isFile() || entry.isSymbolicLink()) {
        yield { file, relative, isDirectory: false };
      }
    }
    for (let i = subdirs.length - 1; i >= 0; i--) stack.push(subdirs[i]!);
  }
}

/**
 * A glob as a RegExp over `/`-separated relative paths: `**` any depth, `*` and `?` within one
 * segment, `{a,b}` alternatives, `[...]` classes.
 */
export function globToRegExp(glob: string): RegExp {
  let out = '';
  let depth = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*') {
      if (glob[i + 1] === '*') {
        const slash = glob[i + 2] === '/';
        out += slash ? '(?:.*/)?' : '.*';
        i += slash ? 2 : 1;
      } else out += '[^/]*';
    } else if (c === '?') out += '[^/]';
    else if (c === '{') {
      depth++;
      out += '(?:';
    } else if (c === '}' && depth > 0) {
      depth--;
      out += ')';
    } else if (c === ',' && depth > 0) out += '|';
    else if (c === '[') {
      const close = glob.indexOf(']', i + 1);
      if (close === -1) out += '\\[';
      else {
        out += `[${glob
          .slice(i + 1, close)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = close;
      }
    } else out += c.replace(/[.+^$()|\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** Matches a glob against a relative path; a glob without `/` matches the base name anywhere. */
export function globMatcher(glob: string): (relative: string) => boolean {
  const regex = globToRegExp(glob);
  if (glob.includes('/')) return (relative) => regex.test(relative);
  return (relative) => regex.test(relative.slice(relative.lastIndexOf('/') + 1));
}
