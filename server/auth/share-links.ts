import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { mtimeOf, readJsonFile, updateJsonFile } from '../config/json-file.js';

/*
 * Share links (docs/decisions/088-export-and-share.md), in `<dataDir>/shares.json`: each one pins a
 * session and the entry it showed when shared, for other users of this instance. A link is a
 * 192-bit random token, found by lookup in a map (no comparison that leaks timing by prefix), so
 * it can be neither guessed nor enumerated. Writes are read-merge-write under the file's lock,
 * atomic (temp file, fsync, rename), as the user store's.
 */

const TOKEN = /^[A-Za-z0-9_-]{32}$/;

const ShareSchema = z.object({
  token: z.string().regex(TOKEN),
  sessionId: z.string(),
  /** The entry the link opens at; null: the session before its first entry. */
  leafId: z.string().nullable(),
  createdBy: z.string(),
  createdAt: z.string(),
});
export type Share = z.infer<typeof ShareSchema>;

const SharesFileSchema = z.object({ version: z.literal(1), shares: z.array(ShareSchema) });

export class ShareLinks {
  private readonly file: string;
  private byToken = new Map<string, Share>();
  private loadedMtime = -1;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'shares.json');
  }

  /** The link's share, or undefined for a token that is unknown, revoked or not a token at all. */
  find(token: string): Share | undefined {
    if (!TOKEN.test(token)) return undefined;
    this.refresh();
    return this.byToken.get(token);
  }

  /** The session's links, oldest first. */
  forSession(sessionId: string): Share[] {
    this.refresh();
    return [...this.byToken.values()].filter((share) => share.sessionId === sessionId);
  }

  create(sessionId: string, leafId: string | null, createdBy: string): Share {
    const share: Share = {
      token: randomBytes(24).toString('base64url'),
      sessionId,
      leafId,
      createdBy,
      createdAt: new Date().toISOString(),
    };
    this.write((shares) => [...shares, share]);
    return share;
  }

  /** Removes the link; false when it was not there. */
  revoke(token: string): boolean {
    if (!this.find(token)) return false;
    this.write((shares) => shares.filter((share) => share.token !== token));
    return true;
  }

  private parse(json: unknown): Share[] {
    const parsed = SharesFileSchema.safeParse(json ?? { version: 1, shares: [] });
    if (!parsed.success)
      throw new Error(`${this.file} is not a valid shares file; fix or remove it.`);
    return parsed.data.shares;
  }

  private write(change: (shares: Share[]) => Share[]): void {
    const written = updateJsonFile(this.file, (current) => ({
      version: 1 as const,
      shares: change(this.parse(current)),
    }));
    this.byToken = new Map((written?.shares ?? []).map((share) => [share.token, share]));
    this.loadedMtime = mtimeOf(this.file);
  }

  private refresh(): void {
    const mtime = mtimeOf(this.file);
    if (mtime === this.loadedMtime) return;
    this.byToken = new Map(
      this.parse(readJsonFile(this.file)).map((share) => [share.token, share]),
    );
    this.loadedMtime = mtime;
  }
}
