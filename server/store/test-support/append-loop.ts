/*
 * A writer to be killed: opens (or creates) a session and appends in a loop, printing each id
 * once its append has returned. Usage: append-loop.ts <file> | --create <dir>
 * Prints "file <path>" first when it creates the session.
 */
import { SessionStore } from '../session-store.js';
import { assistantMessage, toolResultMessage, userMessage } from '../../test-support/messages.js';

const [mode, target] = process.argv.slice(2);
if (!mode) {
  process.stderr.write('usage: append-loop.ts <file> | --create <dir>\n');
  process.exit(2);
}
const store =
  mode === '--create'
    ? SessionStore.create({ cwd: '/w', sessionDir: target! })
    : SessionStore.open(mode);
if (mode === '--create') process.stdout.write(`file ${store.file}\n`);

let n = 0;
for (;;) {
  n++;
  const big = 'x'.repeat((n * 7919) % 200_000);
  const ids = [
    store.appendMessage(userMessage(`prompt ${n}`)),
    store.appendMessage(assistantMessage('', { toolCalls: [{ id: `c${n}`, name: 'bash' }] })),
    store.appendMessage(toolResultMessage(`c${n}`, big)),
    store.appendMessage(assistantMessage(`done ${n}`)),
  ];
  if (n % 5 === 0) store.branch(ids[0]!);
  if (n % 3 === 0) store.sync();
  process.stdout.write(`${ids.join('\n')}\n`);
}
