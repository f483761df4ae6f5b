import { createHash, randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { RoleSchema, type Role, type UserSummary } from '../../shared/protocol.js';
import { mtimeOf, readJsonFile, updateJsonFile } from '../config/json-file.js';

/*
 * Team users in `<dataDir>/users.json`. A login token is 32 random bytes (base64url) shown once; the
 * file keeps only its first characters (to find the user without hashing against every one) and an
 * scrypt hash with a per-user salt. The file is re-read when it changes, so `arbor user add/remove`
 * takes effect on a running server.
 *
 * Each user has a stable random `id`, made when the user is added: logins are bound to it, not to the
 * name, so removing a user and adding one of the same name does not bring the old logins back.
 * Records written before ids existed get one derived from their salt and hash (unique to that
 * record, so a re-added user gets another), written into the file at its next change.
 */

export const USER_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const TOKEN_ID_LENGTH = 8;
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const;

const UserRecordSchema = z.object({
  id: z.string().min(1).optional(),
  name: z.string().regex(USER_NAME_PATTERN),
  role: RoleSchema,
  tokenId: z.string(),
  salt: z.string(),
  hash: z.string(),
  created: z.string(),
});
type UserRecord = z.infer<typeof UserRecordSchema> & { id: string };

/** A user as the server knows them: the stable id logins are bound to, the name and the role. */
export interface StoredUser extends UserSummary {
  id: string;
}

function legacyId(record: { salt: string; hash: string }): string {
  return `u-${createHash('sha256').update(`${record.salt}:${record.hash}`).digest('base64url').slice(0, 22)}`;
}

function toStoredUser(record: UserRecord): StoredUser {
  return { id: record.id, name: record.name, role: record.role };
}

const UsersFileSchema = z.object({ version: z.literal(1), users: z.array(UserRecordSchema) });

function scryptHash(token: string, salt: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(token, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export class UserStore {
  readonly file: string;
  private users: UserRecord[] = [];
  private loadedMtime = -1;

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'users.json');
  }

  /** Users as they are now on disk. Throws (with the file's name) when the file is corrupt. */
  list(): UserSummary[] {
    return this.records().map(({ name, role }) => ({ name, role }));
  }

  hasUsers(): boolean {
    return this.records().length > 0;
  }

  get(name: string): StoredUser | undefined {
    const record = this.records().find((user) => user.name === name);
    return record ? toStoredUser(record) : undefined;
  }

  /** The user with this id, if they still exist (a removed and re-added name has a new id). */
  getById(id: string): StoredUser | undefined {
    const record = this.records().find((user) => user.id === id);
    return record ? toStoredUser(record) : undefined;
  }

  /** When the user was added, in ms since the epoch; undefined for an unknown id. */
  createdAt(id: string): number | undefined {
    const record = this.records().find((user) => user.id === id);
    return record ? Date.parse(record.created) : undefined;
  }

  /**
   * Calls `listener` soon after users.json changes on disk (`arbor user add/remove` in another
   * process, an edit by hand), so that the server can end what a removed user still holds open.
   * Watches the folder (the file is replaced by a rename, which a watch on the file itself would
   * miss) and polls once a second as well, for file systems where watching does not work.
   * Returns a function that stops watching.
   */
  watch(listener: () => void): () => void {
    let last = mtimeOf(this.file);
    const check = () => {
      const now = mtimeOf(this.file);
      if (now === last) return;
      last = now;
      listener();
    };
    let watcher: fs.FSWatcher | undefined;
    try {
      fs.mkdirSync(path.dirname(this.file), { recursive: true });
      watcher = fs.watch(path.dirname(this.file), (_event, filename) => {
        if (filename === null || filename === path.basename(this.file)) check();
      });
      watcher.on('error', () => watcher?.close());
      watcher.unref();
    } catch {
      watcher = undefined;
    }
    const timer = setInterval(check, 1000);
    timer.unref();
    return () => {
      clearInterval(timer);
      watcher?.close();
    };
  }

  /** Adds a user and returns their login token; it is not stored and cannot be shown again. */
  async add(name: string, role: Role): Promise<{ token: string }> {
    if (!USER_NAME_PATTERN.test(name)) {
      throw new Error(
        `"${name}" is not a valid user name: use letters, digits, ".", "_" or "-" (at most 64).`,
      );
    }
    const users = this.records();
    if (users.some((user) => user.name === name)) {
      throw new Error(`User "${name}" already exists; remove it first to issue a new token.`);
    }
    const token = randomBytes(32).toString('base64url');
    const salt = randomBytes(16);
    const hash = await scryptHash(token, salt);
    const record: UserRecord = {
      id: randomBytes(16).toString('base64url'),
      name,
      role,
      tokenId: token.slice(0, TOKEN_ID_LENGTH),
      salt: salt.toString('base64url'),
      hash: hash.toString('base64url'),
      created: new Date().toISOString(),
    };
    this.update((current) => {
      if (current.some((user) => user.name === name)) {
        throw new Error(`User "${name}" already exists; remove it first to issue a new token.`);
      }
      return [...current, record];
    });
    return { token };
  }

  remove(name: string): boolean {
    let removed = false;
    this.update((current) => {
      const rest = current.filter((user) => user.name !== name);
      removed = rest.length !== current.length;
      return removed ? rest : undefined;
    });
    return removed;
  }

  /** The user a login token belongs to, or undefined. Takes scrypt time whether or not it matches. */
  async verify(token: string): Promise<StoredUser | undefined> {
    const candidates = this.records().filter(
      (user) => user.tokenId === token.slice(0, TOKEN_ID_LENGTH),
    );
    const salt = candidates[0] ? Buffer.from(candidates[0].salt, 'base64url') : randomBytes(16);
    let found: UserRecord | undefined;
    for (const candidate of candidates.length > 0 ? candidates : [undefined]) {
      const hash = await scryptHash(
        token,
        candidate ? Buffer.from(candidate.salt, 'base64url') : salt,
      );
      if (!candidate) continue;
      const expected = Buffer.from(candidate.hash, 'base64url');
      if (expected.length === hash.length && timingSafeEqual(expected, hash)) found = candidate;
    }
    return found ? toStoredUser(found) : undefined;
  }

  private records(): UserRecord[] {
    const mtime = mtimeOf(this.file);
    if (mtime === this.loadedMtime) return this.users;
    this.users = this.parse(readJsonFile(this.file));
    this.loadedMtime = mtime;
    return this.users;
  }

  private parse(json: unknown): UserRecord[] {
    if (json === undefined) return [];
    const parsed = UsersFileSchema.safeParse(json);
    if (!parsed.success) {
      throw new Error(
        `${this.file} is not a valid users file (${parsed.error.issues[0]?.message ?? 'bad shape'}).`,
      );
    }
    return parsed.data.users.map((user) => ({ ...user, id: user.id ?? legacyId(user) }));
  }

  /**
   * Changes the users as they are on disk now, under the file's lock, so that a server and
   * `arbor user` (or two of them) adding at once keep every user. `change` returning undefined
   * changes nothing. Records without an id are written with the id they were read with.
   */
  private update(change: (users: UserRecord[]) => UserRecord[] | undefined): void {
    const written = updateJsonFile(this.file, (json) => {
      const users = change(this.parse(json));
      return users && { version: 1 as const, users };
    });
    if (!written) return;
    this.users = written.users;
    this.loadedMtime = mtimeOf(this.file);
  }
}
