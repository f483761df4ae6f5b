/*
 * A process that holds a lock and idles (its lease refreshed by the lock's own timer) until
 * killed. Usage: hold-lock.ts <lock path>. Prints "held <pid>" once it holds the lock, or
 * "busy" and exits 3 when another holder has it.
 */
import { isHeld, tryLock } from '../file-lock.js';

const [lockPath] = process.argv.slice(2);
if (!lockPath) {
  process.stderr.write('usage: hold-lock.ts <lock path>\n');
  process.exit(2);
}
const result = tryLock(lockPath);
if (!isHeld(result)) {
  process.stdout.write('busy\n');
  process.exit(3);
}
process.stdout.write(`held ${process.pid}\n`);
setInterval(() => undefined, 1 << 30);
