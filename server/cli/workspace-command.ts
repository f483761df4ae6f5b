import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { resolveDataDir } from '../config/data-dir.js';
import { TRUST_FILE, setTrust, trustDecision } from '../resources/workspace-trust.js';

const usage = `Usage:
  arbor workspace trust DIR [--data DIR]     its context files, skills and templates load in team mode
  arbor workspace untrust DIR [--data DIR]   they do not load, in team mode or alone
  arbor workspace status DIR [--data DIR]    the decision in force for DIR
`;

/**
 * `arbor workspace trust|untrust|status DIR`: the admin's decision whether a workspace's own
 * instructions load (decision 085), kept in pi's `<dataDir>/trust.json`, so pi and Arbor on the
 * same folder agree. A running server reads it at the next request.
 */
export async function runWorkspace(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { data: { type: 'string' } } });
  } catch (error) {
    process.stderr.write(`arbor workspace: ${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  const [action, dir] = parsed.positionals;
  if (!dir || !['trust', 'untrust', 'status'].includes(action ?? '')) {
    process.stderr.write(usage);
    return 2;
  }
  const dataDir = resolveDataDir({
    flag: parsed.values.data,
    env: process.env,
    cwd: process.cwd(),
    home: os.homedir(),
  });
  const trustFile = path.join(dataDir, TRUST_FILE);
  if (action === 'status') {
    const decision = trustDecision(dataDir, path.resolve(dir));
    process.stdout.write(
      decision === null
        ? `${dir}: no decision in ${trustFile} (loads alone, not in team mode)\n`
        : `${dir}: ${decision ? 'trusted' : 'not trusted'} (${trustFile})\n`,
    );
    return 0;
  }
  let real: string;
  try {
    real = setTrust(dataDir, dir, action === 'trust');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    process.stderr.write(
      code === 'ENOENT'
        ? `arbor workspace: "${dir}" does not exist.\n`
        : `arbor workspace: ${(error as Error).message}\n`,
    );
    return 1;
  }
  process.stdout.write(
    action === 'trust'
      ? `Trusted ${real}: its context files, skills and prompt templates load from the next request.\n`
      : `Not trusted ${real}: its context files, skills and prompt templates no longer load.\n`,
  );
  return 0;
}
