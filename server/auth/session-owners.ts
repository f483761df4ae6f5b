import path from 'node:path';
import { z } from 'zod';
import { mtimeOf, readJsonFile, updateJsonFileAsync } from '../config/json-file.js';

/*
 * Who owns each session, in `<dataDir>/owners.json` ({ sessionId: userName }). Kept beside the
 * session files rather than inside them so files stay exactly pi's and an imported file cannot claim
 * an owner (see docs/decisions/030-authorisation.md). A session with no record (made by pi, or before
 * users existed) has no owner: only admins act in it.
 *
 * The map in memory is what this server knows; the file is written in the background (temp file,
 * fsync, rename, off the event loop) so that starting a session does not stall every other
 * session's stream on a disk flush. A write applies this server's changes to the file as it is on
 * disk then, under the file's lock (read-merge-write), so another writer's owners are never lost.
 * Changes made while a write runs share the next write; `flush()` waits for all of them and is
 * called at shutdown.
 */

const OwnersFileSchema = z.object({
  version: z.literal(1),
  owners: z.record(z.string(), z.string()),
});

export class SessionOwners {
  private readonly file: string;
  private owners = new Map<string, string>();
  private loadedMtime = -1;
  private writing: Promise<void> | undefined;
  /** Changes not yet on disk: an owner, or null for a record to remove. */
  private readonly changes = new Map<string, string | null>();
  private failure: unknown;

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
    this.changes.set(sessionId, owner);
    this.persist();
  }

  forget(sessionId: string): void {
    this.refresh();
    if (!this.owners.delete(sessionId)) return;
    this.changes.set(sessionId, null);
    this.persist();
  }

  private parse(json: unknown): Map<string, string> {
    const parsed = OwnersFileSchema.safeParse(json ?? { version: 1, owners: {} });
    if (!parsed.success)
      throw new Error(`${this.file} is not a valid owners file; fix or remove it.`);
    return new Map(Object.entries(parsed.data.owners));
  }

  /** The file's owners with the changes not yet written on top. */
  private withChanges(owners: Map<string, string>): Map<string, string> {
    for (const [id, owner] of this.changes) {
      if (owner === null) owners.delete(id);
      else owners.set(id, owner);
    }
    return owners;
  }

  private refresh(): void {
    // While a write is pending, memory is ahead of the file: never reload over it.
    if (this.writing) return;
    const mtime = mtimeOf(this.file);
    if (mtime === this.loadedMtime) return;
    this.owners = this.withChanges(this.parse(readJsonFile(this.file)));
    this.loadedMtime = mtime;
  }

  /** Resolves once every change made so far is on disk; throws the first failed write. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.failure !== undefined) {
      // A failed write is tried once more with every change not yet written.
      this.failure = undefined;
      this.persist();
      while (this.writing) await this.writing;
    }
    const failure = this.failure;
    this.failure = undefined;
    if (failure !== undefined) throw failure;
  }

  private persist(): void {
    this.writing ??= this.writeWhileChanged().finally(() => {
      this.writing = undefined;
    });
  }

  private async writeWhileChanged(): Promise<void> {
    while (this.changes.size > 0) {
      const batch = new Map(this.changes);
      this.changes.clear();
      try {
        const written = await updateJsonFileAsync(this.file, (json) => {
          const owners = this.parse(json);
          for (const [id, owner] of batch) {
            if (owner === null) owners.delete(id);
            else owners.set(id, owner);
          }
          return { version: 1, owners: Object.fromEntries(owners) };
        });
        // Memory takes what other writers added, and keeps the changes made meanwhile.
        this.owners = this.withChanges(new Map(Object.entries(written?.owners ?? {})));
        this.loadedMtime = mtimeOf(this.file);
      } catch (error) {
        // Memory keeps the records; the next change or the shutdown flush writes them again.
        for (const [id, owner] of batch) if (!this.changes.has(id)) this.changes.set(id, owner);
        this.failure ??= error;
        return;
      }
    }
  }
}
