import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_LIMITS } from './sandbox-command.js';
import { bashAs, giveTo, identities, type Identity } from './test-support/bash-as.js';
import { requireSandbox } from './test-support/require-sandbox.js';

// Needs bubblewrap and user namespaces; says what to install when they are missing.
beforeAll(requireSandbox);

/*
 * What really holds inside the sandbox, measured as the server's user (root on a container) and
 * as nobody: processes, memory per process, the RAM-backed /tmp and /dev/shm, file size, and
 * that the command cannot raise its own limits.
 */

let base: string;
let workspace: string;

beforeEach(() => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'arbor-limits-'));
  fs.chmodSync(base, 0o755);
  workspace = path.join(base, 'ws');
  fs.mkdirSync(workspace);
});
afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

async function sandboxed(who: Identity, command: string, limits = {}) {
  giveTo(who, workspace);
  return bashAs(who, {
    workspace: fs.realpathSync(workspace),
    options: { mode: 'sandboxed', limits },
    command,
    timeout: 60,
  });
}

const MiB = 1024 * 1024;

describe.each(identities)('sandbox limits, as %s', (who) => {
  it('bounds how many processes a command can start', async () => {
    // Forks sleepers until the kernel refuses (or 2,000 are running), then stops them.
    const forker = [
      'my @kids; while (@kids < 2000) { my $pid = fork();',
      'last unless defined $pid; if ($pid == 0) { sleep 60; exit 0 } push @kids, $pid }',
      'print "forked=" . scalar(@kids) . "\\n"; kill "KILL", @kids; 1 while wait() > 0;',
    ].join(' ');
    const result = await sandboxed(who, `perl -e '${forker}'`);
    const forked = Number(/forked=(\d+)/.exec(result.text)?.[1]);
    expect(forked).toBeGreaterThan(0);
    const claimed = `${DEFAULT_SANDBOX_LIMITS.processes} processes`;
    if (result.description.includes(claimed)) {
      expect(forked).toBeLessThan(DEFAULT_SANDBOX_LIMITS.processes);
    } else {
      // Root without a pids cgroup: RLIMIT_NPROC does not apply to root, and the model is not
      // told of a limit that does not hold.
      expect(who).toBe('server user');
      expect(process.getuid?.()).toBe(0);
      expect(forked).toBe(2000);
    }
  }, 120_000);

  it('refuses a 2 GiB allocation but allows a modest one', async () => {
    // The sandbox hides the host's /tmp and home: a Node that lives there (the project's own, in a
    // checkout under /tmp) is copied into the workspace, which the command sees.
    let node = process.execPath;
    if (
      [os.tmpdir(), os.homedir()].some((hidden) => !path.relative(hidden, node).startsWith('..'))
    ) {
      const copy = path.join(workspace, 'node');
      fs.copyFileSync(node, copy);
      fs.chmodSync(copy, 0o755);
      node = copy;
    }
    const alloc = (bytes: number) =>
      `${node} -e 'try { Buffer.alloc(${bytes}, 1); console.log("allocated ${bytes}") } catch { console.log("refused ${bytes}") }'`;
    const result = await sandboxed(who, `${alloc(256 * MiB)}; ${alloc(2048 * MiB)} 2>&1`);
    expect(result.text).toContain(`allocated ${256 * MiB}`);
    expect(result.text).not.toContain(`allocated ${2048 * MiB}`);
  }, 60_000);

  it('refuses to fill /tmp and /dev/shm past their size', async () => {
    const result = await sandboxed(
      who,
      [
        'head -c 1G /dev/zero > /tmp/big 2>/dev/null; echo tmp=$?',
        'echo tmpsize=$(stat -c %s /tmp/big)',
        'rm -f /tmp/big',
        'head -c 200M /dev/zero > /dev/shm/big 2>/dev/null; echo shm=$?',
        'echo shmsize=$(stat -c %s /dev/shm/big)',
        'touch /dev/elsewhere 2>/dev/null; echo dev=$?',
      ].join('; '),
    );
    expect(result.text).toMatch(/tmp=[1-9]/);
    expect(Number(/tmpsize=(\d+)/.exec(result.text)?.[1])).toBeLessThanOrEqual(
      DEFAULT_SANDBOX_LIMITS.tmpBytes,
    );
    expect(result.text).toMatch(/shm=[1-9]/);
    expect(Number(/shmsize=(\d+)/.exec(result.text)?.[1])).toBeLessThanOrEqual(
      DEFAULT_SANDBOX_LIMITS.shmBytes,
    );
    expect(result.text).toMatch(/dev=[1-9]/);
  }, 60_000);

  it('cuts a file at the file size limit', async () => {
    const result = await sandboxed(
      who,
      '(head -c 20M /dev/zero > big) 2>/dev/null; echo write=$?',
      { fileBytes: 8 * MiB },
    );
    expect(result.text).toMatch(/write=[1-9]/);
    expect(fs.statSync(path.join(workspace, 'big')).size).toBe(8 * MiB);
  }, 60_000);

  it('cannot raise its own limits', async () => {
    const result = await sandboxed(
      who,
      [
        'ulimit -H -u unlimited 2>/dev/null; echo nproc=$?',
        'ulimit -H -v unlimited 2>/dev/null; echo as=$?',
        'ulimit -H -f unlimited 2>/dev/null; echo fsize=$?',
        'echo now=$(ulimit -H -v)',
      ].join('; '),
    );
    expect(result.text).toMatch(/nproc=[1-9]/);
    expect(result.text).toMatch(/as=[1-9]/);
    expect(result.text).toMatch(/fsize=[1-9]/);
    expect(result.text).toContain(`now=${DEFAULT_SANDBOX_LIMITS.memoryBytes / 1024}`);
  }, 60_000);
});
