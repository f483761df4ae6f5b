import v8 from 'node:v8';
import { SessionStore } from '../../server/store/session-store.js';
const f = process.argv[2]!;
const s = SessionStore.openReadOnly(f);
const c = s.buildSessionContext();
globalThis.gc!();
console.log(process.memoryUsage());
v8.writeHeapSnapshot('/tmp/open.heapsnapshot');
console.log(c.messages.length, s.getLeafId());
