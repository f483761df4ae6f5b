// Runs under pi 1.6's own Node (see pi16-oracle.ts): pi 1.6 renewing a subscription as it does,
// through its own AuthStorage on `<authPath>`: it takes pi's lock, prints "locked", waits
// `<holdMs>` (a token request in flight) and saves `<credential JSON>` for `<provider>` before
// letting go, then prints "saved".
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';

const [piIndex, authPath, provider, holdMs, credentialJson] = process.argv.slice(2);
const storageModule = path.join(path.dirname(piIndex), 'core', 'auth-storage.js');
const { AuthStorage } = await import(pathToFileURL(storageModule).href);
const storage = AuthStorage.create(authPath);
await storage.modify(provider, async () => {
  process.stdout.write('locked\n');
  await sleep(Number(holdMs));
  return JSON.parse(credentialJson);
});
process.stdout.write('saved\n');
