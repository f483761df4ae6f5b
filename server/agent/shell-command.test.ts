import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createBashTool } from '../tools/bash-tool.js';
import { runShellCommand, shellRunner } from './shell-command.js';

function workspace(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-shell-'));
}

describe('the editor shell command', () => {
  it('runs in the workspace and records pi bashExecution fields in pi order', async () => {
    const dir = workspace();
    fs.writeFileSync(path.join(dir, 'here.txt'), 'x');
    const bash = createBashTool(dir, { mode: 'unsandboxed' });
    const run = shellRunner(new Map([['bash', bash]]));
    const message = await runShellCommand(run, 'ls; echo hi', false);
    expect(Object.keys(message)).toEqual([
      'role',
      'command',
      'output',
      'exitCode',
      'cancelled',
      'truncated',
      'timestamp',
    ]);
    expect(message).toMatchObject({
      role: 'bashExecution',
      command: 'ls; echo hi',
      output: 'here.txt\nhi\n',
      exitCode: 0,
      cancelled: false,
      truncated: false,
    });
  });

  it('keeps a failing exit code and marks !! commands as excluded from the context', async () => {
    const run = shellRunner(
      new Map([['bash', createBashTool(workspace(), { mode: 'unsandboxed' })]]),
    );
    const message = await runShellCommand(run, 'echo no >&2; exit 3', true);
    expect(message).toMatchObject({ output: 'no\n', exitCode: 3, excludeFromContext: true });
  });

  it('a cancelled command has no exit code', async () => {
    const run = shellRunner(
      new Map([['bash', createBashTool(workspace(), { mode: 'unsandboxed' })]]),
    );
    const controller = new AbortController();
    const pending = runShellCommand(run, 'echo start; sleep 30', false, controller.signal);
    setTimeout(() => controller.abort(), 300);
    const message = await pending;
    expect(message).toMatchObject({ cancelled: true });
    expect('exitCode' in message).toBe(false);
  });

  it('is refused where the workspace has bash turned off', () => {
    expect(() => shellRunner(new Map())).toThrow(/Shell commands are turned off/);
  });
});
