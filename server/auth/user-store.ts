import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { RoleSchema, type Role, type UserSummary } from '../../shared/protocol.js';
import { mtimeOf, readJsonFile, updateJsonFile } from '../config/json-file.js';

/*
 * Team users in `<dataDir>/users.json`. A login token is 32 random bytes (base64url) shown once; the
 * file keeps only its first characters (to find the user without hashing against every one) and an
 * scrypt hash with a per-user salt. The file is re-read when it changes, so `arbor user add/remove`
 * takes effect on a running server.
 */

export const USER_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const TOKEN_ID_LENGTH = 8;
const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 } as const;

const UserRecordSchema = z.object({
  name: z.string().regex(USER_NAME_PATTERN),
  role: RoleSchema,
  tokenId: z.string(),
  salt: z.string(),
  hash: z.string(),
  created: z.string(),
});
type UserRecord = z.infer<typeof UserRecordSchema>;

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

  get(name: string): UserSummary | undefined {
    const record = this.records().find((user) => user.name === name);
    return record ? { name: record.name, role: record.role } : undefined;
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
  async verify(token: string): Promise<UserSummary | undefined> {
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
    return found ? { name: found.name, role: found.role } : undefined;
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
    return parsed.data.users;
  }

  /**
   * Changes the users as they are on disk now, under the file's lock, so that a server and
   * `arbor user` (or two of them) adding at once keep every user. `change` returning undefined
   * changes nothing.
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
