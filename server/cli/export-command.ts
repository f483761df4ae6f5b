import fs from 'node:fs';
import path from 'node:path';
import { exportSessionChunks } from '../export/export-session.js';
import { parseCommandArgs } from './parse-command-args.js';

const usage = 'Usage: arbor export FILE [OUT.html] [--path]\n';

/**
 * `arbor export FILE [OUT.html]`, as pi's `--export`: the session as one self-contained HTML page,
 * written beside the file (its name with `.html`) when no output is named; `--path` keeps only
 * the active path. Prints where it wrote.
 */
export async function runExport(args: string[]): Promise<number> {
  const parsed = parseCommandArgs('export', usage, args, {
    options: { path: { type: 'boolean' } },
    positionals: { min: 1, max: 2 },
  });
  if (!parsed.ok) return parsed.status;
  const [file, out] = parsed.positionals as [string, string | undefined];
  const pathOnly = parsed.values.path === true;
  const target = path.resolve(out ?? file.replace(/\.jsonl$/, '') + '.html');
  if (path.resolve(file) === target)
    throw new Error('The output would overwrite the session file.');
  // Written piece by piece: a long session never becomes one string in memory.
  const fd = fs.openSync(target, 'w');
  try {
    for (const piece of exportSessionChunks(file, pathOnly ? 'path' : 'all'))
      fs.writeSync(fd, piece);
  } finally {
    fs.closeSync(fd);
  }
  process.stdout.write(`${target}\n`);
  return 0;
}
