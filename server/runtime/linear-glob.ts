import { RE2JS } from 're2js';

/*
 * Globs matched in time linear in the text (decision 099): find, grep and the model patterns of
 * pi's settings.json (`enabledModels`) compile theirs here.
 */

/** The longest glob find and grep take: a match costs at most the glob's length times the path's. */
const MAX_GLOB_LENGTH = 512;

/**
 * A glob as regular-expression source over `/`-separated relative paths: `**` any depth, `*` and
 * `?` within one segment, `{a,b}` alternatives, `[...]` classes. Only syntax RE2 accepts.
 */
function globToRegExpSource(glob: string): string {
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
    } else out += c.replace(/[.+*?^$()[\]{}|\\]/g, '\\$&');
  }
  return `^${out}$`;
}

/**
 * A glob compiled for RE2's engine (re2js), which matches in time linear in the path for a given
 * glob: V8's backtracking engine took 16.6 s for `*a*a*a*a*b` against two 200-character names,
 * and every glob library's regular expressions (picomatch, minimatch) backtrack the same way.
 */
export function compileGlob(glob: string): RE2JS {
  if (glob.length > MAX_GLOB_LENGTH)
    throw new Error(`The glob is longer than ${MAX_GLOB_LENGTH} characters.`);
  try {
    return RE2JS.compile(globToRegExpSource(glob), RE2JS.DOTALL);
  } catch (error) {
    const reason =
      error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : '';
    throw new Error(`Invalid glob pattern "${glob}": ${reason}`, { cause: error });
  }
}
