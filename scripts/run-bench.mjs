// `npm run bench [name...]`: runs bench/<name>/main.ts for each benchmark (all of them by default).
import { readdirSync, existsSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';

const { positionals: wanted } = parseArgs({ allowPositionals: true, options: {} });
const known = readdirSync('bench', { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(`bench/${d.name}/main.ts`))
  .map((d) => d.name);
const unknown = wanted.filter((name) => !known.includes(name));
if (unknown.length > 0) {
  process.stderr.write(
    `no benchmark named ${unknown.join(', ')}; there are: ${known.join(', ')}\n`,
  );
  process.exit(2);
}
const names = known.filter((name) => wanted.length === 0 || wanted.includes(name));

let failed = 0;
for (const name of names) {
  process.stdout.write(`\n== bench/${name}\n`);
  const result = spawnSync('npx', ['tsx', '--expose-gc', `bench/${name}/main.ts`], {
    stdio: 'inherit',
  });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
