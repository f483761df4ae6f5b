import path from 'node:path';

/*
 * Where Arbor keeps its data (users, owners, sessions, trash): `--data`/`--data-dir`, else
 * `ARBOR_DATA_DIR`, else `~/.arbor`. Resolved here alone, so the server and `arbor user` always
 * read and write the same folder.
 */

export const DEFAULT_DATA_DIR = '~/.arbor';

/** `~` and `~/…` under `home`; any other path as given. */
export function expandHome(dir: string, home: string): string {
  return dir === '~' || dir.startsWith('~/') ? path.join(home, dir.slice(1)) : dir;
}

/** The data folder, absolute; an empty or blank `ARBOR_DATA_DIR` counts as unset. */
export function resolveDataDir(opts: {
  flag?: string | undefined;
  env: Record<string, string | undefined>;
  cwd: string;
  home: string;
}): string {
  const fromEnv = opts.env.ARBOR_DATA_DIR?.trim() ? opts.env.ARBOR_DATA_DIR : undefined;
  return path.resolve(opts.cwd, expandHome(opts.flag ?? fromEnv ?? DEFAULT_DATA_DIR, opts.home));
}
