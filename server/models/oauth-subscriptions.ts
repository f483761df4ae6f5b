import {
  createModels,
  ModelsError,
  type Credential,
  type CredentialStore,
  type Models,
  type Provider,
} from '@earendil-works/pi-ai';
import { builtinProviders } from '@earendil-works/pi-ai/providers/all';
import type { AuthFile } from './auth-file.js';
import type { RequestAuth } from './model-stream.js';

/*
 * Subscriptions a person signed in to with pi (`pi /login`: Claude Pro/Max, GitHub Copilot,
 * ChatGPT, …), which pi keeps in auth.json as OAuth tokens. Arbor uses them as pi does, through
 * pi-ai's own `Models.getAuth`: a token with less than five minutes left is refreshed by the
 * provider's own flow, under pi's lock on auth.json with the file read again inside it, so that
 * when Arbor and a running pi both need a new token, one of them refreshes and the other takes
 * what it wrote (a refresh token is often good only once). Only OAuth entries are handed to
 * pi-ai here, and its view of the environment is empty: keys, `$NAME`s and commands stay with the
 * catalog's own rules (decision 060).
 *
 * Signing in happens in pi (a browser flow on the user's machine); Arbor reads and renews.
 */

/** The providers pi-ai knows a subscription flow for (made on first use). */
let subscriptionProviders: Map<string, Provider> | undefined;
function subscriptionProvider(id: string): Provider | undefined {
  subscriptionProviders ??= new Map(
    builtinProviders()
      .filter((provider) => provider.auth.oauth)
      .map((provider) => [provider.id, provider]),
  );
  return subscriptionProviders.get(id);
}

/** auth.json as pi-ai's credential store, showing it only the OAuth entries. */
class OAuthOnlyStore implements CredentialStore {
  constructor(private readonly auth: AuthFile) {}

  read(providerId: string): Promise<Credential | undefined> {
    return Promise.resolve(this.auth.oauthOf(providerId));
  }

  list(): Promise<[]> {
    return Promise.resolve([]);
  }

  modify(
    providerId: string,
    fn: (current: Credential | undefined) => Promise<Credential | undefined>,
  ): Promise<Credential | undefined> {
    return this.auth.modify(providerId, async (current) => {
      const next = await fn(current?.type === 'oauth' ? current : undefined);
      // pi-ai writes only OAuth tokens through here (a refresh); anything else is not ours to save.
      return next?.type === 'oauth' ? next : undefined;
    });
  }

  delete(): Promise<void> {
    return Promise.reject(new Error('Arbor does not sign out of a subscription; pi /logout does'));
  }
}

const NO_AMBIENT = {
  env: () => Promise.resolve(undefined),
  fileExists: () => Promise.resolve(false),
};

export class OAuthSubscriptions {
  private models: Models | undefined;

  constructor(private readonly auth: AuthFile) {}

  /** Whether `provider` has a subscription saved that Arbor can use. */
  has(provider: string): boolean {
    return (
      this.auth.oauthOf(provider) !== undefined && subscriptionProvider(provider) !== undefined
    );
  }

  /**
   * How to authorise a request to `provider` now: the subscription's access token (refreshed
   * first when it is about to expire) and, for some, the account's own endpoint; or why not.
   */
  async requestAuth(provider: string, signal?: AbortSignal): Promise<RequestAuth> {
    const name = subscriptionProvider(provider)?.auth.oauth?.name ?? provider;
    try {
      const result = await this.collection().getAuth(provider, signal ? { signal } : undefined);
      if (!result?.auth.apiKey && !result?.auth.headers)
        return { problem: `No subscription: sign in to ${name} with pi (/login)` };
      const { apiKey, headers, baseUrl } = result.auth;
      return { apiKey, ...(headers ? { headers } : {}), ...(baseUrl ? { baseUrl } : {}) };
    } catch (error) {
      if (signal?.aborted) return { problem: 'Request was aborted.' };
      const cause =
        error instanceof ModelsError && error.cause instanceof Error ? error.cause : error;
      // pi-ai's refresh errors carry the whole chain and a stack; a person needs the first lines.
      const detail = (cause instanceof Error ? cause.message : String(cause))
        .split('; stack=')[0]!
        .slice(0, 400);
      return {
        problem:
          error instanceof ModelsError && error.code === 'oauth'
            ? `The ${name} sign-in could not be renewed (${detail}): sign in again with pi (/login)`
            : `The ${name} sign-in could not be read: ${detail}`,
      };
    }
  }

  /** pi-ai's model collection with the subscription providers, made on first use. */
  private collection(): Models {
    if (!this.models) {
      const models = createModels({
        credentials: new OAuthOnlyStore(this.auth),
        authContext: NO_AMBIENT,
      });
      subscriptionProvider('');
      for (const provider of subscriptionProviders!.values()) models.setProvider(provider);
      this.models = models;
    }
    return this.models;
  }
}
