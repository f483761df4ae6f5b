import fs from 'node:fs';
import path from 'node:path';
import { openRegularFileSync } from './regular-file.js';

/** The newest `*.jsonl` in `dir` (by mtime) whose first line is a session header. */
export function mostRecentSessionFile(dir: string): string | undefined {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith('.jsonl'));
  } catch {
    return undefined;
  }
  let best: { file: string; mtime: number } | undefined;
  for (const name of names) {
    const file = path.join(dir, name);
    if (!startsWithHeader(file)) continue;
    const mtime = fs.statSync(file).mtimeMs;
    if (!best || mtime > best.mtime) best = { file, mtime };
  }
  return best?.file;
}

function startsWithHeader(file: string): boolean {
  try {
    const fd = openRegularFileSync(file);
    try {
      const buffer = Buffer.alloc(4096);
      const n = fs.readSync(fd, buffer, 0, buffer.length, 0);
      const newline = buffer.indexOf(0x0a);
      const first = buffer.toString('utf8', 0, newline === -1 || newline > n ? n : newline);
      const value: unknown = JSON.parse(first);
      return (
        typeof value === 'object' &&
        value !== null &&
        (value as { type?: unknown }).type === 'session' &&
        typeof (value as { id?: unknown }).id === 'string'
      );
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return false;
  }
}
