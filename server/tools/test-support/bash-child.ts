import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BashToolOptions } from '../bash-launch.js';
import { createBashTool } from '../bash-tool.js';

/*
 * Runs one bash tool call in its own process and prints the outcome as one JSON line, so a test
 * can run the server's tool code as another user (`runuser -u nobody`) or with another TMPDIR.
 */

interface ChildInput {
  workspace: string;
  options: BashToolOptions;
  command: string;
  timeout?: number;
  /** The temp folder the tool uses (set after start-up, so the process itself starts with a working one). */
  tmpdir?: string;
}

const input = JSON.parse(process.argv[2] ?? '{}') as ChildInput;
if (input.tmpdir !== undefined) process.env.TMPDIR = input.tmpdir;
const tool = createBashTool(input.workspace, input.options);

/** The full-output file as this process sees it before it exits (and removes its folder). */
function describeLog(file: string | undefined) {
  if (file === undefined) return undefined;
  const folders: { path: string; mode: number; uid: number; isDirectory: boolean }[] = [];
  for (let dir = path.dirname(file); dir !== os.tmpdir() && dir !== '/'; dir = path.dirname(dir)) {
    const stat = fs.lstatSync(dir);
    folders.push({
      path: dir,
      mode: stat.mode & 0o7777,
      uid: stat.uid,
      isDirectory: stat.isDirectory(),
    });
  }
  return {
    lines: fs.readFileSync(file, 'utf8').split('\n').length,
    mode: fs.statSync(file).mode & 0o7777,
    folders,
  };
}
try {
  const result = await tool.execute(
    tool.parse({
      command: input.command,
      ...(input.timeout !== undefined ? { timeout: input.timeout } : {}),
    }),
    { signal: new AbortController().signal, onUpdate: () => {} },
  );
  const text = result.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
  const description = tool.spec.description;
  const details = result.details as { fullOutputPath?: string } | undefined;
  const log = describeLog(details?.fullOutputPath);
  process.stdout.write(`${JSON.stringify({ ok: true, text, details, description, log })}\n`);
} catch (error) {
  const description = tool.spec.description;
  process.stdout.write(
    `${JSON.stringify({ ok: false, text: (error as Error).message, description })}\n`,
  );
}
