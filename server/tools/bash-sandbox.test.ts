import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import {
  bashAs,
  giveTo,
  identities,
  toolProcessFolder,
  type Identity,
} from './test-support/bash-as.js';
import { OUTSIDE_TMP } from './test-support/outside-tmp.js';
import { requireSandbox } from './test-support/require-sandbox.js';

// Needs bubblewrap and user namespaces; says what to install when they are missing.
beforeAll(requireSandbox);

/*
 * The attacks on sandboxed bash, run for real as the server's user (root on a container) and as
 * nobody: escaping the read-only view with root's capabilities, and reading Arbor's data folder,
 * other workspaces, the home folder and the server's environment.
 */

let base: string;

/** add_key and keyctl, for the keyring attack. */
const KEY_SYSCALLS: Record<string, { addKey: number; keyctl: number }> = {
  x64: { addKey: 248, keyctl: 250 },
  arm64: { addKey: 217, keyctl: 219 },
};

/** Outside /tmp: the sandbox's /tmp is its own, so files under the host's would hide anyway. */
beforeEach(() => {
  base = fs.mkdtempSync(path.join(OUTSIDE_TMP, 'arbor-sandbox-'));
  fs.chmodSync(base, 0o755);
});
afterEach(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

function makeWorkspace(who: Identity, dir = path.join(base, 'ws')): string {
  fs.mkdirSync(dir, { recursive: true });
  giveTo(who, dir);
  return fs.realpathSync(dir);
}

describe.each(identities)('bash in the sandbox, as %s', (who) => {
  it('keeps no capability and cannot remount, unmount or write the host', async () => {
    const workspace = makeWorkspace(who);
    const probe = `/etc/arbor-escape-${crypto.randomBytes(6).toString('hex')}`;
    const hostMounts = fs.readFileSync('/proc/self/mountinfo', 'utf8');
    onTestFinished(() => fs.rmSync(probe, { force: true }));
    const result = await bashAs(who, {
      workspace,
      options: { mode: 'sandboxed' },
      command: [
        'grep CapEff /proc/self/status',
        'mount -o remount,rw,bind / 2>/dev/null; echo remount=$?',
        `touch ${probe} 2>/dev/null; echo touch=$?`,
        'umount -l /proc 2>/dev/null; echo umount=$?',
        'mount -t tmpfs none /mnt 2>/dev/null; echo mount=$?',
        'echo procs=$(ls /proc | grep -c "^[0-9]")',
      ].join('; '),
    });
    expect(result.text).toContain('CapEff:\t0000000000000000');
    expect(result.text).toMatch(/remount=[1-9]/);
    expect(result.text).toMatch(/touch=[1-9]/);
    expect(result.text).toMatch(/umount=[1-9]/);
    expect(result.text).toMatch(/mount=[1-9]/);
    // Still the sandbox's own /proc: a handful of its processes, not the host's.
    const procs = Number(/procs=(\d+)/.exec(result.text)?.[1]);
    expect(procs).toBeGreaterThan(0);
    expect(procs).toBeLessThan(20);
    expect(fs.existsSync(probe)).toBe(false);
    expect(fs.readFileSync('/proc/self/mountinfo', 'utf8')).toBe(hostMounts);
  }, 60_000);

  it("cannot change the host kernel's settings in /proc/sys", async () => {
    // As real root the sandbox's uid 0 is the host's, and sysctl files check the uid, not a
    // capability: a core_pattern of "|/workspace/x" runs x as root on the host at the next crash.
    // The attack writes the value back unchanged, so a failure here changes nothing.
    const workspace = makeWorkspace(who);
    const before = fs.readFileSync('/proc/sys/kernel/core_pattern', 'utf8');
    const result = await bashAs(who, {
      workspace,
      options: { mode: 'sandboxed' },
      command: [
        'v=$(cat /proc/sys/kernel/core_pattern)',
        'printf "%s\\n" "$v" 2>/dev/null > /proc/sys/kernel/core_pattern; echo core_pattern=$?',
        'echo writable=$(find /proc/sys -type f -writable 2>/dev/null | wc -l)',
        'echo readable=$(cat /proc/sys/kernel/ostype)',
      ].join('; '),
    });
    expect(result.text).toMatch(/core_pattern=[1-9]/);
    expect(result.text).toContain('writable=0');
    // Still readable: programs read their settings there.
    expect(result.text).toContain('readable=Linux');
    expect(fs.readFileSync('/proc/sys/kernel/core_pattern', 'utf8')).toBe(before);
  }, 60_000);

  it("cannot reach a host service through its Unix socket, and the command's own pipes work", async () => {
    // A read-only mount does not stop connect(), and as root the sandbox passes the socket's
    // permission check: /run/docker.sock or systemd's would be root on the host.
    const workspace = makeWorkspace(who);
    const socketPath = path.join(base, 'service.sock');
    const server = net.createServer((socket) => socket.end('host-service-secret\n'));
    await new Promise<void>((resolve) => server.listen(socketPath, resolve));
    onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
    fs.chmodSync(socketPath, 0o666);
    const connect = `require("net").connect(${JSON.stringify(socketPath)}).on("data", (d) => process.stdout.write(d)).on("error", (e) => console.log("connect=" + e.code))`;
    const result = await bashAs(who, {
      workspace,
      options: { mode: 'sandboxed' },
      command: [
        `node -e '${connect}'`,
        `curl -s --max-time 5 --unix-socket ${socketPath} http://service/ 2>&1; echo curl=$?`,
        `node -e 'require("child_process").execFile("echo", ["pipe-ok"], (e, out) => process.stdout.write(out))'`,
      ].join('; '),
    });
    expect(result.text).not.toContain('host-service-secret');
    expect(result.text).toContain('connect=EPERM');
    expect(result.text).toMatch(/curl=[1-9]/);
    expect(result.text).toContain('pipe-ok');
  }, 60_000);

  it("cannot read a key in the server's kernel keyring", async () => {
    // Keyrings are not namespaced: the command inherits the server's session keyring.
    const calls = KEY_SYSCALLS[process.arch];
    expect(calls, `add_key and keyctl numbers for ${process.arch}`).toBeDefined();
    const workspace = makeWorkspace(who);
    fs.writeFileSync(
      path.join(workspace, 'readkey.pl'),
      [
        'open(my $f, "<", "/proc/keys"); my $id = 0;',
        'while (<$f>) { $id = hex((split)[0]) if /arbor-probe/; }',
        `my $buf = "\0" x 64; my $n = syscall(${calls!.keyctl}, 11, $id, $buf, 64);`,
        'print "read=", ($n > 0 ? substr($buf, 0, $n) : "failed"), "\n";',
      ].join('\n'),
    );
    giveTo(who, workspace);
    const addKey = [
      'my ($t, $d, $v) = ("user", "arbor-probe", "keyring-secret-value");',
      `syscall(${calls!.addKey}, $t, $d, $v, length($v), -3) > 0 or die "add_key: $!";`,
      'exec @ARGV or die "exec: $!";',
    ].join(' ');
    const result = await bashAs(
      who,
      { workspace, options: { mode: 'sandboxed' }, command: 'perl readkey.pl' },
      {},
      ['perl', '-e', addKey],
    );
    expect(result.text).toContain('read=failed');
    expect(result.text).not.toContain('keyring-secret-value');
  }, 60_000);

  it('cannot write outside through a descriptor the server inherited', async () => {
    // A server started with an open descriptor (a wrapper's `exec 30<dir`, a supervisor's log)
    // hands it to every child that Node spawns; through /proc/self/fd/30 a command would write
    // the host's folder, mounts or not.
    const workspace = makeWorkspace(who);
    const outside = path.join(base, 'outside');
    fs.mkdirSync(outside);
    fs.chmodSync(outside, 0o777);
    const result = await bashAs(
      who,
      {
        workspace,
        options: { mode: 'sandboxed' },
        command: 'touch /proc/self/fd/30/escaped 2>/dev/null; echo touch=$?',
      },
      {},
      ['/bin/bash', '-c', 'exec 30<"$0"; exec "$@"', outside],
    );
    expect(result.text).toMatch(/touch=[1-9]/);
    expect(fs.readdirSync(outside)).toEqual([]);
  }, 60_000);

  it('cannot see the data folder, other workspaces, the home folder or server secrets', async () => {
    const home = path.join(base, 'home');
    const workspace = makeWorkspace(who, path.join(home, 'projects', 'ws'));
    const dataDir = path.join(home, '.arbor');
    fs.mkdirSync(path.join(dataDir, 'sessions'), { recursive: true });
    fs.writeFileSync(path.join(dataDir, 'models.json'), '{"apiKey":"sk-data-folder-secret"}');
    fs.writeFileSync(path.join(dataDir, 'users.json'), '{"alice":"hash-of-alice"}');
    fs.writeFileSync(path.join(dataDir, 'sessions', 's.jsonl'), 'other users session\n');
    const other = path.join(base, 'other-ws');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'secret.txt'), 'other workspace secret');
    fs.mkdirSync(path.join(home, '.ssh'));
    fs.writeFileSync(path.join(home, '.ssh', 'id_ed25519'), 'home folder secret');
    // A data folder reached through a link is hidden where it really is.
    const linkedData = path.join(base, 'data-link');
    fs.symlinkSync(dataDir, linkedData);
    fs.writeFileSync(path.join(workspace, 'mine.txt'), 'workspace file');
    giveTo(who, workspace);

    const result = await bashAs(
      who,
      {
        workspace,
        options: {
          mode: 'sandboxed',
          dataDir: linkedData,
          workspaces: [workspace, other],
          homeDir: home,
        },
        command: [
          `echo "listed: $(find ${dataDir} ${other} ${home}/.ssh -mindepth 1 2>/dev/null | grep -c .)"`,
          `cat ${dataDir}/models.json ${dataDir}/users.json ${dataDir}/sessions/s.jsonl 2>&1`,
          `cat ${other}/secret.txt ${home}/.ssh/id_ed25519 2>&1`,
          `grep -r secret ${base} 2>/dev/null`,
          `cat ${workspace}/mine.txt`,
          'echo hello > new.txt',
          'env',
        ].join('; '),
      },
      { OPENAI_API_KEY: 'sk-environment-secret', ARBOR_TEST_TOKEN: 'environment-token' },
    );
    expect(result.text).not.toContain('sk-data-folder-secret');
    expect(result.text).not.toContain('hash-of-alice');
    expect(result.text).not.toContain('other users session');
    expect(result.text).not.toContain('other workspace secret');
    expect(result.text).not.toContain('home folder secret');
    expect(result.text).toContain('listed: 0');
    expect(result.text).not.toContain('sk-environment-secret');
    expect(result.text).not.toContain('environment-token');
    expect(result.text).not.toContain('OPENAI_API_KEY');
    // The workspace inside the hidden home stays usable.
    expect(result.text).toContain('workspace file');
    expect(fs.readFileSync(path.join(workspace, 'new.txt'), 'utf8')).toBe('hello\n');
  }, 60_000);

  it("cannot read a container's secrets, world-readable as Docker mounts them", async () => {
    // Docker's `secrets:` land in /run/secrets with mode 0444: an API key there is readable by
    // every user of the container. The test's own folder stands in for /run/secrets.
    const workspace = makeWorkspace(who);
    const secrets = path.join(base, 'run-secrets');
    fs.mkdirSync(secrets);
    fs.writeFileSync(path.join(secrets, 'openai_api_key'), 'sk-container-secret', { mode: 0o444 });
    const result = await bashAs(who, {
      workspace,
      options: { mode: 'sandboxed', secretDirs: [secrets, '/var/run/secrets'] },
      command: `cat ${secrets}/openai_api_key 2>&1; echo "listed=$(ls -A ${secrets} | wc -l)"`,
    });
    expect(result.text).not.toContain('sk-container-secret');
    expect(result.text).toContain('listed=0');
    expect(result.description).toContain('/run/secrets are hidden');
  }, 60_000);

  it("cannot read the host's password hashes or SSH host keys", async () => {
    // As root the sandbox's uid 0 is the host's: a root-owned 0600 file is readable by its owner
    // without any capability. The test's own file stands in for /etc/shadow.
    const workspace = makeWorkspace(who);
    const shadow = path.join(base, 'etc-shadow');
    fs.writeFileSync(shadow, 'root:$y$hash-of-root:19000:0:99999:7:::\n', { mode: 0o644 });
    const result = await bashAs(who, {
      workspace,
      options: { mode: 'sandboxed', secretFiles: [shadow] },
      command: `cat ${shadow} 2>&1; echo "size=$(wc -c < ${shadow})"; echo x > ${shadow} 2>&1; echo write=$?`,
    });
    expect(result.text).not.toContain('hash-of-root');
    expect(result.text).toContain('size=0');
    expect(result.text).toMatch(/write=[1-9]/);
    expect(fs.readFileSync(shadow, 'utf8')).toContain('hash-of-root');
  }, 60_000);

  it('hides a data folder that lies inside the workspace', async () => {
    const workspace = makeWorkspace(who);
    const dataDir = path.join(workspace, '.arbor');
    fs.mkdirSync(dataDir);
    fs.writeFileSync(path.join(dataDir, 'users.json'), '{"alice":"hash-of-alice"}');
    const result = await bashAs(who, {
      workspace,
      options: { mode: 'sandboxed', dataDir, workspaces: [workspace] },
      command: `cat .arbor/users.json 2>&1; ls -A .arbor; echo x > .arbor/users.json 2>&1; echo write=$?`,
    });
    expect(result.text).not.toContain('hash-of-alice');
    expect(result.text).toMatch(/write=[1-9]/);
    expect(fs.readFileSync(path.join(dataDir, 'users.json'), 'utf8')).toBe(
      '{"alice":"hash-of-alice"}',
    );
  }, 60_000);
});

describe('bash without user namespaces', () => {
  it('refuses to run rather than run with capabilities', async () => {
    const workspace = makeWorkspace('server user');
    const marker = path.join(workspace, 'ran');
    const programFolder = await toolProcessFolder();
    // The tool process itself runs where no further user namespace may be made.
    const noUserns = [
      'bwrap',
      '--unshare-user',
      '--disable-userns',
      '--ro-bind',
      '/',
      '/',
      '--dev',
      '/dev',
      '--proc',
      '/proc',
      '--tmpfs',
      '/tmp',
      // The tool process's own folder lies under /tmp: keep it reachable.
      '--ro-bind',
      programFolder,
      programFolder,
      '--bind',
      workspace,
      workspace,
      '--',
    ];
    const result = await bashAs(
      'server user',
      { workspace, options: { mode: 'sandboxed' }, command: `touch ${marker}` },
      {},
      noUserns,
    );
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(
      /^bash is unavailable: the sandbox \(bubblewrap\) cannot create a user namespace on this server/,
    );
    expect(fs.existsSync(marker)).toBe(false);
  }, 60_000);
});
