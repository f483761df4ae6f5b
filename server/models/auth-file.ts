import fs from 'node:fs';
import { z } from 'zod';
import { parsePiConfigValue, resolvePiConfigValue } from './pi-config-value.js';
import { changeUnderPiLock } from './pi-locked-file.js';

/*
 * pi's `auth.json` in the data folder (pi's agent folder when Arbor shares it): the API keys an
 * admin saved, by provider, read and written as pi 1.6 reads and writes them
 * (`core/auth-storage.js`), so Arbor and a running pi share one file without racing:
 *
 * - `{"<provider>": {"type": "api_key", "key": "…", "env"?: {…}}}`, or a subscription pi signed
 *   in to (`{"type": "oauth", "access", "refresh", "expires", …}`), used and refreshed through
 *   oauth-subscriptions.ts; fields Arbor does not know are kept as they are.
 * - Changes happen under pi's own lock (proper-lockfile on the file itself, stale after 30 s), with
 *   the file read again inside it, and are written in place: the 0600 mode is set when the file is
 *   made, and an admin's own mode or ACL on an existing file stays.
 * - A key is one of pi's config values: `$NAME` reads the environment and a leading `!` makes it a
 *   command. Arbor never runs the command (decision 060). A key entered in the page is a literal
 *   and is written escaped (`$` as `$$`, a leading `!` as `$!`), so neither pi nor Arbor reads
 *   it as a variable or runs it as a command.
 */

const ApiKeySchema = z.looseObject({
  type: z.literal('api_key'),
  key: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
});
const OAuthSchema = z.looseObject({
  type: z.literal('oauth'),
  access: z.string(),
  refresh: z.string(),
  expires: z.number(),
});
const AuthDataSchema = z.record(z.string(), z.union([ApiKeySchema, OAuthSchema]));
type AuthData = z.infer<typeof AuthDataSchema>;
/** A subscription's tokens as auth.json keeps them (pi-ai's `OAuthCredential`). */
export type StoredOAuth = z.infer<typeof OAuthSchema>;
/** One provider's credential as auth.json keeps it. */
export type StoredCredential = AuthData[string];

/** A provider id as pi writes them; anything else is refused before it reaches the file. */
export const PROVIDER_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** The longest key accepted from a person; real keys are a few hundred characters. */
export const MAX_KEY_LENGTH = 4096;

/** `key` as pi's config value that reads back as exactly `key`. */
export function literalConfigValue(key: string): string {
  const escaped = key.replace(/\$/g, '$$$$');
  return escaped.startsWith('!') ? `$${escaped}` : escaped;
}

/** What auth.json says of one provider's key. */
export type StoredKey = { key: string } | { reason: string } | undefined;

export class AuthFile {
  private cache: { mtimeMs: number; size: number; data: AuthData } | undefined;

  constructor(readonly file: string) {}

  /** The key of `provider`, resolved as pi resolves it; a reason when it is there but unusable. */
  keyFor(provider: string, env: Record<string, string | undefined>): StoredKey {
    let data: AuthData;
    try {
      data = this.read();
    } catch (error) {
      return { reason: error instanceof Error ? error.message : String(error) };
    }
    const credential = Object.hasOwn(data, provider) ? data[provider] : undefined;
    if (credential?.type !== 'api_key' || credential.key === undefined) return undefined;
    const value = parsePiConfigValue(credential.key);
    if ('command' in value)
      return { reason: `No API key: the key in auth.json is a command, which Arbor does not run` };
    const key = resolvePiConfigValue(value, { ...env, ...credential.env });
    return key ? { key } : { reason: 'No API key: the key in auth.json names an unset variable' };
  }

  /** The OAuth subscription saved for `provider`, if any (unreadable files count as none). */
  oauthOf(provider: string): StoredOAuth | undefined {
    try {
      const data = this.read();
      const credential = Object.hasOwn(data, provider) ? data[provider] : undefined;
      return credential?.type === 'oauth' ? credential : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Replaces `provider`'s credential with what `next` makes of the current one, under pi's lock
   * (`next` may wait: a token refresh runs inside it, as pi's does); undefined leaves it as it is.
   * Resolves to the credential the file holds afterwards.
   */
  async modify(
    provider: string,
    next: (current: StoredCredential | undefined) => Promise<StoredCredential | undefined>,
  ): Promise<StoredCredential | undefined> {
    let after: StoredCredential | undefined;
    await this.change(async (data) => {
      after = Object.hasOwn(data, provider) ? data[provider] : undefined;
      const made = await next(after);
      if (made === undefined) return false;
      data[provider] = after = made;
      return true;
    });
    return after;
  }

  /** Saves `key` (a literal) as `provider`'s API key; pi reads it back the same. */
  async setKey(provider: string, key: string): Promise<void> {
    await this.change((data) => {
      data[provider] = { type: 'api_key', key: literalConfigValue(key) };
      return true;
    });
  }

  /** Forgets `provider`'s credential; false when there was none. */
  async removeKey(provider: string): Promise<boolean> {
    return this.change((data) => {
      if (!Object.hasOwn(data, provider)) return false;
      delete data[provider];
      return true;
    });
  }

  /** What changes when the file does (its mtime and size), for those who cache what it decides. */
  version(): string {
    try {
      const stat = fs.statSync(this.file);
      return `${stat.mtimeMs}:${stat.size}`;
    } catch {
      return 'none';
    }
  }

  /** The file's content, read again only when it changed (mtime and size). */
  private read(): AuthData {
    let stat: fs.Stats | undefined;
    try {
      stat = fs.statSync(this.file);
    } catch {
      return {};
    }
    if (this.cache && this.cache.mtimeMs === stat.mtimeMs && this.cache.size === stat.size)
      return this.cache.data;
    if (!stat.isFile()) throw new Error('auth.json is not a regular file');
    const data = parseAuth(fs.readFileSync(this.file, 'utf8'));
    this.cache = { mtimeMs: stat.mtimeMs, size: stat.size, data };
    return data;
  }

  /** Applies `edit` to the file under pi's lock; writes when it returns true. */
  private async change(edit: (data: AuthData) => boolean | Promise<boolean>): Promise<boolean> {
    const written = await changeUnderPiLock(this.file, { mode: 0o600, parse: parseAuth, edit });
    if (written) this.cache = undefined;
    return written;
  }
}

function parseAuth(text: string): AuthData {
  let json: unknown;
  try {
    json = text.trim() === '' ? {} : JSON.parse(text);
  } catch (error) {
    throw new Error(
      `auth.json is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  const parsed = AuthDataSchema.safeParse(json);
  if (!parsed.success) {
    const where = parsed.error.issues[0]?.path[0];
    throw new Error(
      where === undefined
        ? 'auth.json is not valid: expected an object'
        : `auth.json is not valid: the credential of provider "${String(where)}"`,
    );
  }
  return parsed.data;
}
