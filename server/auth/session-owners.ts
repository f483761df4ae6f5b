import path from 'node:path';
import { z } from 'zod';
import { mtimeOf, readJsonFile, writeJsonAtomicAsync } from '../config/json-file.js';

/*
 * Who owns each session, in `<dataDir>/owners.json` ({ sessionId: userName }). Kept beside the
 * session files rather than inside them so files stay exactly pi's and an imported file cannot claim
 * an owner (see docs/decisions/030-authorisation.md). A session with no record (made by pi, or before
 * users existed) has no owner: only admins act in it.
 *
 * The map in memory is the truth while the server runs; the file is written in the background
 * (temp file, fsync, rename, off the event loop) so that starting a session does not stall every
 * other session's stream on a disk flush. Changes made while a write runs share the next write;
 * `flush()` waits for all of them and is called at shutdown.
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
  private dirty = false;
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
    this.persist();
  }

  forget(sessionId: string): void {
    this.refresh();
    if (this.owners.delete(sessionId)) this.persist();
  }

  private refresh(): void {
    // While a write is pending, memory is ahead of the file: never reload over it.
    if (this.writing) return;
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

  /** Resolves once every change made so far is on disk; throws the first failed write. */
  async flush(): Promise<void> {
    while (this.writing) await this.writing;
    if (this.failure !== undefined) {
      // A failed write is tried once more with everything memory holds now.
      this.failure = undefined;
      this.persist();
      while (this.writing) await this.writing;
    }
    const failure = this.failure;
    this.failure = undefined;
    if (failure !== undefined) throw failure;
  }

  private persist(): void {
    this.dirty = true;
    this.writing ??= this.writeWhileDirty().finally(() => {
      this.writing = undefined;
    });
  }

  private async writeWhileDirty(): Promise<void> {
    while (this.dirty) {
      this.dirty = false;
      try {
        await writeJsonAtomicAsync(this.file, {
          version: 1,
          owners: Object.fromEntries(this.owners),
        });
        // The file now says what memory says: no reload for our own write.
        this.loadedMtime = mtimeOf(this.file);
      } catch (error) {
        // Memory keeps the record; the next change or the shutdown flush writes it again.
        this.failure ??= error;
        this.dirty = false;
      }
    }
  }
}
