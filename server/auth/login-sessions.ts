import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { readJsonFile, updateJsonFile } from '../config/json-file.js';

/*
 * Server-side login sessions behind an opaque cookie. The cookie holds 32 random bytes; the server
 * keeps only their SHA-256, so a leaked `<dataDir>/logins.json` does not let anyone in. Persisted so
 * a restart does not log the team out; ended by logout, by expiry, or by removing the user.
 */

export const LOGIN_COOKIE = 'arbor_login';
export const LOGIN_MAX_AGE_MS = 30 * 24 * 60 * 60 * 1000;

const LoginsFileSchema = z.object({
  version: z.literal(1),
  logins: z.record(z.string(), z.object({ user: z.string(), expires: z.number() })),
});

function digest(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

export class LoginSessions {
  private readonly file: string;
  private readonly logins = new Map<string, { user: string; expires: number }>();

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
  create(user: string): string {
    const secret = randomBytes(32).toString('base64url');
    const key = digest(secret);
    const login = { user, expires: Date.now() + LOGIN_MAX_AGE_MS };
    this.logins.set(key, login);
    this.persist((logins) => {
      logins[key] = login;
    });
    return secret;
  }

  /** The user name behind a cookie value, if the login is live. */
  lookup(secret: string | undefined): string | undefined {
    if (!secret || secret.length > 128) return undefined;
    const key = digest(secret);
    const login = this.logins.get(key);
    if (!login) return undefined;
    if (login.expires <= Date.now()) {
      this.logins.delete(key);
      return undefined;
    }
    return login.user;
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
  private persist(change: (logins: Record<string, { user: string; expires: number }>) => void) {
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
