import { describe, expect, it } from 'vitest';
import { DEFAULT_SANDBOX_LIMITS, sandboxArgs } from './sandbox-command.js';

/** The mount operations in order, as `op path`. */
function mounts(args: string[]): string[] {
  const ops = new Set(['--bind', '--ro-bind', '--tmpfs', '--remount-ro']);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--') break;
    if (ops.has(arg)) out.push(`${arg} ${args[i + 1]}`);
  }
  return out;
}

const spec = {
  workspace: '/home/me/projects/app',
  hide: ['/home/me/projects/app/.arbor', '/home/me', '/srv/other'],
  readOnly: ['/tmp/arbor-tool-output-x/bash-y'],
  network: false,
  limits: DEFAULT_SANDBOX_LIMITS,
};

describe('sandboxArgs', () => {
  it('always makes a user namespace without capabilities', () => {
    const args = sandboxArgs(spec, 'true');
    expect(args.slice(0, 4)).toEqual(['--unshare-user', '--disable-userns', '--cap-drop', 'ALL']);
    expect(args).toContain('--unshare-net');
    expect(sandboxArgs({ ...spec, network: true }, 'true')).not.toContain('--unshare-net');
  });

  it('covers a hidden ancestor before binding the workspace, and a hidden descendant after', () => {
    expect(mounts(sandboxArgs(spec, 'true'))).toEqual([
      '--ro-bind /',
      '--tmpfs /dev/shm',
      '--ro-bind /proc/sys',
      '--tmpfs /tmp',
      '--tmpfs /home/me',
      '--tmpfs /srv/other',
      '--bind /home/me/projects/app',
      '--tmpfs /home/me/projects/app/.arbor',
      '--ro-bind /tmp/arbor-tool-output-x/bash-y',
      '--remount-ro /home/me/projects/app/.arbor',
      '--remount-ro /home/me',
      '--remount-ro /srv/other',
      '--remount-ro /dev',
    ]);
  });

  it('never covers the root, the workspace, /tmp, /dev or /proc', () => {
    const odd = { ...spec, hide: ['/', '/tmp', '/dev/shm', '/proc/1', spec.workspace] };
    expect(mounts(sandboxArgs(odd, 'true'))).toEqual([
      '--ro-bind /',
      '--tmpfs /dev/shm',
      '--ro-bind /proc/sys',
      '--tmpfs /tmp',
      '--bind /home/me/projects/app',
      '--ro-bind /tmp/arbor-tool-output-x/bash-y',
      '--remount-ro /dev',
    ]);
  });

  it('runs the command itself as the last argument, after the limits are set', () => {
    const args = sandboxArgs(spec, 'echo "$HOME" ; rm -rf x');
    expect(args.slice(-5, -2)).toEqual(['/bin/bash', '-c', args.at(-3)]);
    expect(args.at(-3)).toContain('ulimit -H -S');
    expect(args.slice(-2)).toEqual(['/bin/bash', 'echo "$HOME" ; rm -rf x']);
  });
});
