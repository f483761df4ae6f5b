import os from 'node:os';
import { RoleSchema } from '../../shared/protocol.js';
import { UserStore } from '../auth/user-store.js';
import { resolveDataDir } from '../config/data-dir.js';

const usage = `Usage:
  arbor user add NAME --role admin|member|viewer [--data DIR]   prints the login token once
  arbor user list [--data DIR]
  arbor user remove NAME [--data DIR]
`;

/** `arbor user add|list|remove`: manages team users in `<dataDir>/users.json`. */
export async function runUser(args: string[]): Promise<number> {
  const positional: string[] = [];
  let role: string | undefined;
  let dataFlag: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '--role' || arg === '--data') {
      const value = args[++i];
      if (value === undefined) {
        process.stderr.write(`arbor user: ${arg} needs a value.\n\n${usage}`);
        return 2;
      }
      if (arg === '--role') role = value;
      else dataFlag = value;
    } else if (arg.startsWith('--')) {
      process.stderr.write(`arbor user: unknown option "${arg}".\n\n${usage}`);
      return 2;
    } else {
      positional.push(arg);
    }
  }
  const dataDir = resolveDataDir({
    flag: dataFlag,
    env: process.env,
    cwd: process.cwd(),
    home: os.homedir(),
  });
  const store = new UserStore(dataDir);
  const [action, name] = positional;

  switch (action) {
    case 'add': {
      const parsedRole = RoleSchema.safeParse(role);
      if (!name || !parsedRole.success) {
        process.stderr.write(`arbor user add: a NAME and --role admin|member|viewer are needed.\n`);
        return 2;
      }
      const { token } = await store.add(name, parsedRole.data);
      process.stdout.write(
        `Added ${name} (${parsedRole.data}). Login token, shown only now:\n\n  ${token}\n\n` +
          `Give it to ${name}; Arbor keeps only a hash of it.\n`,
      );
      return 0;
    }
    case 'list': {
      const users = store.list();
      if (users.length === 0)
        process.stdout.write('No users (Arbor runs without login on loopback).\n');
      for (const user of users) process.stdout.write(`${user.name}\t${user.role}\n`);
      return 0;
    }
    case 'remove': {
      if (!name) {
        process.stderr.write(`arbor user remove: a NAME is needed.\n`);
        return 2;
      }
      if (!store.remove(name)) {
        process.stderr.write(`arbor user remove: no user named "${name}".\n`);
        return 1;
      }
      process.stdout.write(`Removed ${name}; their logins end now.\n`);
      return 0;
    }
    default:
      process.stderr.write(usage);
      return 2;
  }
}
