import path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import { readConfined } from './confined-read.js';

/*
 * pi's ignore files in skill and prompt folders (package-manager.js `addIgnoreRules`):
 * `.gitignore`, `.ignore` and `.fdignore` of each folder walked, their patterns made relative to
 * the walk's root, read under the same confinement as the resources themselves.
 */

const IGNORE_FILE_NAMES = ['.gitignore', '.ignore', '.fdignore'];

function toPosix(p: string): string {
  return p.split(path.sep).join('/');
}

function prefixPattern(line: string, prefix: string): string | null {
  const trimmed = line.trim();
  if (!trimmed) return null;
  if (trimmed.startsWith('#') && !trimmed.startsWith('\\#')) return null;
  let pattern = line;
  let negated = false;
  if (pattern.startsWith('!')) {
    negated = true;
    pattern = pattern.slice(1);
  } else if (pattern.startsWith('\\!')) {
    pattern = pattern.slice(1);
  }
  if (pattern.startsWith('/')) pattern = pattern.slice(1);
  const prefixed = prefix ? `${prefix}${pattern}` : pattern;
  return negated ? `!${prefixed}` : prefixed;
}

export function newIgnore(): Ignore {
  return ignore();
}

/** Adds the ignore files among `names` (the entries of `dir`) to `ig`, relative to `root`. */
export function addIgnoreRules(
  ig: Ignore,
  dir: string,
  names: readonly string[],
  root: string,
  confine: string,
): void {
  const relativeDir = path.relative(root, dir);
  const prefix = relativeDir ? `${toPosix(relativeDir)}/` : '';
  for (const name of IGNORE_FILE_NAMES) {
    if (!names.includes(name)) continue;
    const read = readConfined(path.join(dir, name), confine);
    if (!read.ok) continue;
    const patterns = read.text
      .split(/\r?\n/)
      .map((line) => prefixPattern(line, prefix))
      .filter((line): line is string => Boolean(line));
    if (patterns.length > 0) ig.add(patterns);
  }
}

/** Whether `file` (a directory when `isDir`) under `root` is ignored. */
export function isIgnored(ig: Ignore, root: string, file: string, isDir: boolean): boolean {
  const relative = toPosix(path.relative(root, file));
  return ig.ignores(isDir ? `${relative}/` : relative);
}
