import fs from 'node:fs';
import path from 'node:path';
import { CodedError } from '../errors/coded-error.js';

/*
 * Confinement of file tools to a workspace, by directory handle (decision 051). A path is opened
 * one component at a time, each relative to a directory file descriptor already held — through
 * `/proc/self/fd/<dirfd>/<name>` with O_NOFOLLOW, so the kernel resolves every step from the
 * held directory and never from a path string another process could swap under us. It emulates
 * openat2's RESOLVE_BENEATH, which Node cannot call: `..` returns to the held parent and is
 * refused at the root; a symbolic link is read through its parent's descriptor and its target
 * walked the same way (relative targets from the link's directory, absolute ones only when under
 * the workspace's real path, from the root), at most MAX_LINK_HOPS times. Tools then act on the
 * descriptors they were handed, never on a path.
 */

const { O_RDONLY, O_CREAT, O_EXCL, O_DIRECTORY, O_NOFOLLOW, O_NONBLOCK } = fs.constants;

/** As Linux's own limit on symbolic links followed in one lookup. */
const MAX_LINK_HOPS = 40;
/** Directories created, and components looked at again after a concurrent change, per open. */
const MAX_RETRIES = 4096;

export class WorkspaceEscapeError extends CodedError {
  readonly code = 'outside_workspace';
}

/** The path (as the model should see it) does not exist, or a component of it is no directory. */
export class MissingPathError extends Error {
  constructor(
    readonly shown: string,
    options?: ErrorOptions,
  ) {
    super(`Path not found: ${shown}`, options);
  }
}

/** A name inside the directory `dirFd` refers to, or that directory itself, as a path. */
export function fdPath(dirFd: number, name?: string): string {
  return name === undefined ? `/proc/self/fd/${dirFd}` : `/proc/self/fd/${dirFd}/${name}`;
}

/**
 * The workspace's real path, taken once when a session's tools are made. With `exact`, the path
 * given must be that real path already (the server's workspaces are resolved at start): a folder
 * swapped for a link since then is refused, not followed.
 */
export function realWorkspace(workspace: string, exact = false): string {
  const real = fs.realpathSync(path.resolve(workspace));
  if (exact && real !== path.resolve(workspace))
    throw new WorkspaceEscapeError(
      `The workspace ${workspace} is no longer the folder Arbor started with: it now leads to ${real}. Restart Arbor if that is meant.`,
    );
  return real;
}

/** An opened file or directory of the workspace, with the directories held to reach it. */
export interface WorkspaceEntry {
  /** The file or directory itself. */
  fd: number;
  /** The held directory that contains it; undefined when it is the workspace itself. */
  parentFd: number | undefined;
  /** Its name in that directory ('' for the workspace). */
  name: string;
  /** Where it was found, relative to the workspace, links resolved ('.' for the workspace). */
  shown: string;
  /** Closes `fd` and every directory held to reach it. */
  close(): void;
}

export interface OpenOptions {
  /** Flags of the final open (default O_RDONLY); O_NOFOLLOW and O_NONBLOCK are always added. */
  flags?: number;
  /** Create a missing file (O_EXCL) and missing parent directories, one component at a time. */
  create?: boolean;
}

interface Step {
  name: string;
  /** The component came from a link's target: missing, the link dangles. */
  fromLink: boolean;
}

function errnoOf(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** "EACCES: permission denied", without the /proc path Node puts after it. */
export function describeErrno(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split(', ')[0] ?? message;
}

/**
 * The components to walk from the workspace root for what the model wrote: relative to the
 * workspace, or absolute inside it (`..` taken lexically, as before). An absolute path outside the
 * workspace's real path whose real path lies inside (the workspace named through a link) is
 * mapped there; that mapping only chooses the components — the walk still confines them.
 */
function inputComponents(root: string, input: string): string[] {
  if (input.includes('\0')) throw new WorkspaceEscapeError(`Path "${input}" contains a NUL byte`);
  const lexical = path.resolve(root, input === '' ? '.' : input);
  const relative = insideRelative(root, lexical) ?? insideRelative(root, realPathHint(lexical));
  if (relative === undefined)
    throw new WorkspaceEscapeError(`Path "${input}" is outside the workspace`);
  return relative.split('/').filter((part) => part !== '' && part !== '.');
}

function insideRelative(root: string, candidate: string | undefined): string | undefined {
  if (candidate === undefined) return undefined;
  if (candidate === root) return '';
  const prefix = root.endsWith('/') ? root : `${root}/`;
  return candidate.startsWith(prefix) ? candidate.slice(prefix.length) : undefined;
}

/** The real path of the deepest existing ancestor of `file`, with the rest appended. */
function realPathHint(file: string): string | undefined {
  const rest: string[] = [];
  for (let at = file; ;) {
    try {
      return path.join(fs.realpathSync(at), ...rest.reverse());
    } catch {
      const parent = path.dirname(at);
      if (parent === at) return undefined;
      rest.push(path.basename(at));
      at = parent;
    }
  }
}

let procChecked = false;

/** Fails clearly (once) where /proc/self/fd cannot reach a held directory. */
function checkProc(rootFd: number): void {
  if (procChecked) return;
  let same: boolean;
  try {
    const held = fs.fstatSync(rootFd);
    const viaProc = fs.statSync(fdPath(rootFd));
    same = held.ino === viaProc.ino && held.dev === viaProc.dev;
  } catch {
    same = false;
  }
  if (!same)
    throw new Error(
      'File tools are unavailable: they need /proc/self/fd (Linux, with /proc mounted) to open files without following a swapped path',
    );
  procChecked = true;
}

/**
 * Opens `input` inside the workspace whose real path is `root`, component by component from held
 * directory descriptors; the caller must `close()` the entry. Throws WorkspaceEscapeError for
 * anything leading outside (and for writing through a dangling link), MissingPathError when the
 * path does not exist (without `create`), and an Error naming the path for any other failure.
 */
export function openInWorkspace(
  root: string,
  input: string,
  options: OpenOptions = {},
): WorkspaceEntry {
  const queue: Step[] = inputComponents(root, input).map((name) => ({ name, fromLink: false }));
  const finalFlags = (options.flags ?? O_RDONLY) | O_NOFOLLOW | O_NONBLOCK;
  const dirs: number[] = [openRoot(root)];
  const names: string[] = [];
  let hops = 0;
  let retries = 0;
  const closeAll = () => {
    while (dirs.length > 0) fs.closeSync(dirs.pop()!);
  };
  const shownOf = (parts: string[]) => (parts.length === 0 ? '.' : path.posix.join(...parts));
  const outside = () => new WorkspaceEscapeError(`Path "${input}" is outside the workspace`);
  const hop = () => {
    if (++hops > MAX_LINK_HOPS)
      throw new Error(`Path "${input}" has too many levels of symbolic links`);
  };
  const retry = (step: Step) => {
    if (++retries > MAX_RETRIES) throw new Error(`Path "${input}" keeps changing; try again`);
    queue.unshift(step);
  };
  /** Continues the walk through the link `name` in the current directory, if it is one. */
  const followLink = (parent: number, name: string): boolean => {
    let target: string;
    try {
      target = fs.readlinkSync(fdPath(parent, name));
    } catch (error) {
      if (errnoOf(error) === 'EINVAL' || errnoOf(error) === 'ENOENT') return false;
      throw error;
    }
    hop();
    if (path.isAbsolute(target)) {
      const relative = insideRelative(root, target);
      if (relative === undefined) throw outside();
      while (dirs.length > 1) fs.closeSync(dirs.pop()!);
      names.length = 0;
      target = relative;
    }
    const steps = target
      .split('/')
      .filter((part) => part !== '' && part !== '.')
      .map((part) => ({ name: part, fromLink: true }));
    queue.unshift(...steps);
    return true;
  };

  try {
    checkProc(dirs[0]!);
    for (;;) {
      const step = queue.shift();
      if (step === undefined) {
        // The path ends at a directory already held: the workspace, or one reached by `..`.
        const fd = dirs.pop()!;
        const entry = held(fd, dirs, names.at(-1) ?? '', shownOf(names));
        dirs.length = 0;
        return entry;
      }
      const { name } = step;
      if (name === '..') {
        if (dirs.length === 1) throw outside();
        fs.closeSync(dirs.pop()!);
        names.pop();
        continue;
      }
      const parent = dirs.at(-1)!;
      const here = fdPath(parent, name);
      const shown = () => shownOf([...names, name, ...queue.map((s) => s.name)]);
      const dangling = () =>
        new WorkspaceEscapeError(`Path "${input}" is a dangling symbolic link`);

      if (queue.length > 0) {
        // An intermediate component: a directory, or a link to follow.
        try {
          dirs.push(fs.openSync(here, O_RDONLY | O_DIRECTORY | O_NOFOLLOW));
          names.push(name);
          continue;
        } catch (error) {
          const code = errnoOf(error);
          if (code === 'ENOTDIR' || code === 'ELOOP') {
            if (followLink(parent, name)) continue;
            // A directory or a link again (changed meanwhile): look again.
            if (changedSince(here)) {
              retry(step);
              continue;
            }
            if (options.create)
              throw new Error(`Cannot create ${shown()}: ${name} is not a directory`, {
                cause: error,
              });
            throw new MissingPathError(shown(), { cause: error });
          }
          if (code !== 'ENOENT')
            throw new Error(`Cannot open ${shown()}: ${describeErrno(error)}`, { cause: error });
          if (!options.create) throw new MissingPathError(shown(), { cause: error });
          if (step.fromLink) throw dangling();
          try {
            fs.mkdirSync(here);
          } catch (mkdirError) {
            if (errnoOf(mkdirError) !== 'EEXIST')
              throw new Error(`Cannot create ${shown()}: ${describeErrno(mkdirError)}`, {
                cause: mkdirError,
              });
          }
          retry(step);
          continue;
        }
      }

      // The final component.
      let fd: number;
      try {
        fd = fs.openSync(here, finalFlags);
      } catch (error) {
        const code = errnoOf(error);
        if (code === 'ELOOP') {
          // Not a link any more (swapped back meanwhile): look again.
          if (!followLink(parent, name)) retry(step);
          continue;
        }
        if (code !== 'ENOENT')
          throw new Error(`Cannot open ${shown()}: ${describeErrno(error)}`, { cause: error });
        if (!options.create) throw new MissingPathError(shown(), { cause: error });
        if (step.fromLink) throw dangling();
        try {
          fd = fs.openSync(here, finalFlags | O_CREAT | O_EXCL, 0o666);
        } catch (createError) {
          const createCode = errnoOf(createError);
          if (createCode !== 'EEXIST')
            throw new Error(`Cannot create ${shown()}: ${describeErrno(createError)}`, {
              cause: createError,
            });
          retry(step); // created meanwhile: open what is there now
          continue;
        }
      }
      const entry = held(fd, dirs, name, shownOf([...names, name]));
      dirs.length = 0;
      return entry;
    }
  } finally {
    closeAll();
  }
}

function openRoot(root: string): number {
  return openWorkspaceRoot(root);
}

/**
 * Opens the workspace whose real path is `root` and checks that what was opened is the folder at
 * that path, as the kernel names the descriptor: a folder above it swapped for a link (by bash in
 * a workspace that holds this one) would otherwise make every later open land where the link
 * leads. The caller closes the descriptor.
 */
export function openWorkspaceRoot(root: string): number {
  let fd: number;
  try {
    fd = fs.openSync(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
  } catch (error) {
    throw new Error(`Cannot open the workspace ${root}: ${describeErrno(error)}`, { cause: error });
  }
  let actual: string | undefined;
  try {
    actual = fs.readlinkSync(fdPath(fd));
  } catch {
    actual = undefined;
  }
  if (actual !== root) {
    fs.closeSync(fd);
    throw new WorkspaceEscapeError(
      `The workspace ${root} was moved or replaced by a link${actual ? ` (it now leads to ${actual})` : ''}; its tools do not follow it.`,
    );
  }
  return fd;
}

/** Whether `here`, found to be neither a directory nor a link, now is one of them. */
function changedSince(here: string): boolean {
  try {
    const stat = fs.lstatSync(here);
    return stat.isDirectory() || stat.isSymbolicLink();
  } catch {
    return false;
  }
}

/** Hands the descriptors over to an entry (the caller then forgets them). */
function held(fd: number, dirs: number[], name: string, shown: string): WorkspaceEntry {
  const chain = [...dirs];
  let closed = false;
  return {
    fd,
    parentFd: chain.at(-1),
    name,
    shown,
    close() {
      if (closed) return;
      closed = true;
      fs.closeSync(fd);
      while (chain.length > 0) fs.closeSync(chain.pop()!);
    },
  };
}
