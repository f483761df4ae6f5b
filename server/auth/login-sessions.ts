import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { readJsonFile, updateJsonFile } from '../config/json-file.js';
import type { StoredUser, UserStore } from './user-store.js';

/*
 * Server-side login sessions behind an opaque cookie. The cookie holds 32 random bytes; the server
 * keeps only their SHA-256, so a leaked `<dataDir>/logins.json` does not let anyone in. Persisted so
 * a restart does not log the team out; ended by logout, by expiry, or by removing the user.
 *
 * A login is bound to the user's stable id (user-store.ts), never to the name alone: once the user is
 * removed the login is dropped, even if a user of the same name (with another role) is added later.
 * A login written before ids existed names only the user; it is kept only when it was made after
 * the user of that name was added (so it cannot belong to an earlier user of the name), and is
 * then bound to that user's id.
 */

export const LOGIN_COOKIE = 'arbor_login';
export const LOGIN_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

const LoginSchema = z.object({
  user: z.string(),
  userId: z.string().optional(),
  expires: z.number(),
});
type Login = z.infer<typeof LoginSchema>;

const LoginsFileSchema = z.object({
  version: z.literal(1),
  logins: z.record(z.string(), LoginSchema),
});

function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

export class LoginSessions {
  private readonly file: string;
  private readonly logins = new Map<string, Login>();

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'logins.json');
    const parsed = LoginsFileSchema.safeParse(readJsonFile(this.file));
    if (parsed.success) {
      const now = Date.now();
      for (const [key, login] of Object.entries(parsed.data.logins)) {
        if (login.expires > now) this.logins.set(key, login);
      }
    }
  }

  /** Starts a login for `user`; returns the cookie value. */
  create(user: StoredUser): string {
    const secret = randomBytes(32).toString('base64url');
    const key = digest(secret);
    const login: Login = {
      user: user.name,
      userId: user.id,
      expires: Date.now() + LOGIN_MAX_AGE_MS,
    };
    this.persist((logins) => {
      logins[key] = login;
    });
    return secret;
  }

  /**
   * The user behind a cookie value, as `users` knows them now; undefined when the login is unknown,
   * expired, or its user no longer exists (then the login is dropped for good).
   */
  userFor(secret: string | undefined, users: UserStore): StoredUser | undefined {
    if (!secret || secret.length > 128) return undefined;
    const key = digest(secret);
    const login = this.logins.get(key);
    if (!login) return undefined;
    if (login.expires <= Date.now()) {
      this.logins.delete(key);
      return undefined;
    }
    const user =
      login.userId !== undefined ? users.getById(login.userId) : legacyOwner(login, users);
    if (!user) {
      this.logins.delete(key);
      this.persist((logins) => {
        delete logins[key];
      });
      return undefined;
    }
    if (login.userId === undefined) {
      const bound: Login = { ...login, userId: user.id };
      this.logins.set(key, bound);
      this.persist((logins) => {
        logins[key] = bound;
      });
    }
    return user;
  }

  end(secret: string | undefined): void {
    if (!secret) return;
    const key = digest(secret);
    if (this.logins.delete(key)) {
      this.persist((logins) => {
        delete logins[key];
      });
    }
  }

  /**
   * Applies one change to the logins on disk now (read-merge-write under the file's lock), so a
   * concurrent writer's logins are kept, and takes the merged result as the logins in memory.
   */
  private persist(change: (logins: Record<string, Login>) => void): void {
    const written = updateJsonFile(this.file, (json) => {
      const parsed = LoginsFileSchema.safeParse(json);
      const now = Date.now();
      const logins = Object.fromEntries(
        Object.entries(parsed.success ? parsed.data.logins : {}).filter(
          ([, login]) => login.expires > now,
        ),
      );
      change(logins);
      return { version: 1, logins };
    });
    this.logins.clear();
    for (const [key, login] of Object.entries(written?.logins ?? {})) this.logins.set(key, login);
  }
}

/** The user a login without an id belongs to: the user of its name, if added before it was made. */
function legacyOwner(login: Login, users: UserStore): StoredUser | undefined {
  const user = users.get(login.user);
  if (!user) return undefined;
  const added = users.createdAt(user.id);
  const made = login.expires - LOGIN_MAX_AGE_MS;
  return added !== undefined && added <= made ? user : undefined;
}
