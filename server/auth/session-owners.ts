import path from 'node:path';
import { z } from 'zod';
import { mtimeOf, readJsonFile, writeJsonAtomic } from '../config/json-file.js';

/*
 * Who owns each session, in `<dataDir>/owners.json` ({ sessionId: userName }). Kept beside the
 * session files rather than inside them so files stay exactly pi's and an imported file cannot claim
 * an owner (see docs/decisions/030-authorisation.md). A session with no record (made by pi, or before
 * users existed) has no owner: only admins act in it.
 */

const OwnersFileSchema = z.object({
  version: z.literal(1),
  owners: z.record(z.string(), z.string()),
});

export class SessionOwners {
  private readonly file: string;
  private owners = new Map<string, string>();
  private loadedMtime = -1;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'owners.json');
  }

  ownerOf(sessionId: string): string | null {
    this.refresh();
    return this.owners.get(sessionId) ?? null;
  }

  setOwner(sessionId: string, owner: string): void {
    this.refresh();
    this.owners.set(sessionId, owner);
    this.persist();
  }

  forget(sessionId: string): void {
    this.refresh();
    if (this.owners.delete(sessionId)) this.persist();
  }

  private refresh(): void {
    const mtime = mtimeOf(this.file);
    if (mtime === this.loadedMtime) return;
    const parsed = OwnersFileSchema.safeParse(
      readJsonFile(this.file) ?? { version: 1, owners: {} },
    );
    if (!parsed.success)
      throw new Error(`${this.file} is not a valid owners file; fix or remove it.`);
    this.owners = new Map(Object.entries(parsed.data.owners));
    this.loadedMtime = mtime;
  }

  private persist(): void {
    writeJsonAtomic(this.file, { version: 1, owners: Object.fromEntries(this.owners) });
    this.loadedMtime = mtimeOf(this.file);
  }
}
