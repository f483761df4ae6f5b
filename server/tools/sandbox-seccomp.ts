/*
 * The seccomp filter bwrap applies to sandboxed bash (`--seccomp FD`): no Unix-domain socket can be
 * made, no io_uring (whose requests can make sockets past seccomp), and no kernel keyring call
 * (add_key, request_key, keyctl). Everything else is allowed.
 *
 * Why: a read-only bind mount does not stop `connect()` on a Unix socket, and the network
 * namespace covers only abstract ones. Sockets on the host's file system (Docker's, systemd's,
 * D-Bus, a database's) stayed reachable, and as root the sandbox's uid 0 is the host's, so it
 * passed their permission checks: `curl --unix-socket /run/docker.sock` would be root on the host.
 * `socketpair()` still works (it reaches nothing outside), so pipes between the command's own
 * processes do too. A command that serves or uses a Unix socket of its own fails with EPERM.
 *
 * Keyrings are not namespaced: the command inherited the server's session keyring, and read the
 * keys in it (a Kerberos ticket, an ecryptfs passphrase, whatever the login put there). Docker's
 * default profile refuses these calls for the same reason.
 *
 * A classic BPF program over `struct seccomp_data` (nr at 0, arch at 4, args[0] at 16), built by
 * hand: Node has no binding for libseccomp, and the program is a dozen instructions. The compat
 * ABIs of the host (i386 and x32 on x86-64, 32-bit ARM on arm64) are filtered too, since a
 * command may run a binary built for them; i386's multiplexed `socketcall` is refused whole, as
 * its arguments cannot be read by a filter.
 */

const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const RET_K = 0x06;

const SECCOMP_RET_ALLOW = 0x7fff0000;
const SECCOMP_RET_ERRNO = 0x00050000;
const EPERM = 1;
const AF_UNIX = 1;

const OFFSET_NR = 0;
const OFFSET_ARCH = 4;
/** Low 32 bits of args[0] on a little-endian machine; `socket()`'s domain is an int. */
const OFFSET_ARG0 = 16;

const X32_BIT = 0x40000000;

interface ArchRules {
  audit: number;
  /** Numbers of `socket()`: refused when the domain is AF_UNIX. */
  socket: number[];
  /** Numbers refused whatever their arguments. */
  refuse: number[];
}

/** The ABIs a process on this host can use, by Node's `process.arch`. */
const RULES: Record<string, ArchRules[]> = {
  x64: [
    // x86-64, and x32 (the same arch, numbers with bit 30 set): socket 41; add_key, request_key
    // and keyctl 248-250; io_uring_setup 425.
    {
      audit: 0xc000003e,
      socket: [41, X32_BIT | 41],
      refuse: [248, 249, 250, 425].flatMap((nr) => [nr, X32_BIT | nr]),
    },
    // i386: socket 359, socketcall 102, add_key/request_key/keyctl 286-288, io_uring_setup 425.
    { audit: 0x40000003, socket: [359], refuse: [102, 286, 287, 288, 425] },
  ],
  arm64: [
    // socket 198, add_key/request_key/keyctl 217-219, io_uring_setup 425.
    { audit: 0xc00000b7, socket: [198], refuse: [217, 218, 219, 425] },
    // 32-bit ARM (EABI): socket 281, add_key/request_key/keyctl 309-311, io_uring_setup 425.
    { audit: 0x40000028, socket: [281], refuse: [309, 310, 311, 425] },
  ],
};

type Insn = { code: number; jt: number | string; jf: number | string; k: number; label?: string };

/**
 * The filter for this host, as bwrap reads it (an array of `struct sock_filter`), or undefined on
 * an architecture Arbor does not know, where bash then runs without it.
 */
export function unixSocketFilter(arch: string = process.arch): Buffer | undefined {
  const rules = RULES[arch];
  if (!rules) return undefined;
  const insns: Insn[] = [];
  const emit = (code: number, k: number, jt: number | string = 0, jf: number | string = 0) =>
    insns.push({ code, jt, jf, k });
  const label = (name: string) => insns.push({ code: -1, jt: 0, jf: 0, k: 0, label: name });

  emit(LD_W_ABS, OFFSET_ARCH);
  rules.forEach((rule, i) => {
    label(`arch${i}`);
    emit(JEQ_K, rule.audit, 0, i + 1 < rules.length ? `arch${i + 1}` : 'allow');
    emit(LD_W_ABS, OFFSET_NR);
    for (const nr of rule.refuse) emit(JEQ_K, nr, 'refuse', 0);
    for (const nr of rule.socket) emit(JEQ_K, nr, 'socket', 0);
    emit(RET_K, SECCOMP_RET_ALLOW);
  });
  label('socket');
  emit(LD_W_ABS, OFFSET_ARG0);
  emit(JEQ_K, AF_UNIX, 'refuse', 0);
  label('allow');
  emit(RET_K, SECCOMP_RET_ALLOW);
  label('refuse');
  emit(RET_K, SECCOMP_RET_ERRNO | EPERM);

  // A failed arch check jumps to the next one with the arch still loaded.
  const positions = new Map<string, number>();
  const program: Insn[] = [];
  for (const insn of insns) {
    if (insn.label !== undefined) positions.set(insn.label, program.length);
    else program.push(insn);
  }
  const jump = (target: number | string, at: number): number => {
    if (typeof target === 'number') return target;
    const offset = positions.get(target)! - at - 1;
    if (offset < 0 || offset > 255) throw new Error(`seccomp jump to ${target} out of range`);
    return offset;
  };
  const out = Buffer.alloc(program.length * 8);
  program.forEach((insn, at) => {
    out.writeUInt16LE(insn.code, at * 8);
    out.writeUInt8(jump(insn.jt, at), at * 8 + 2);
    out.writeUInt8(jump(insn.jf, at), at * 8 + 3);
    out.writeUInt32LE(insn.k >>> 0, at * 8 + 4);
  });
  return out;
}
