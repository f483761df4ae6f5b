import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeJsonAtomic } from '../config/json-file.js';

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
    this.logins.set(digest(secret), { user, expires: Date.now() + LOGIN_MAX_AGE_MS });
    this.persist();
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
    if (this.logins.delete(digest(secret))) this.persist();
  }

  private persist(): void {
    writeJsonAtomic(this.file, { version: 1, logins: Object.fromEntries(this.logins) });
  }
}
