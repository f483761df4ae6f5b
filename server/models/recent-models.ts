import path from 'node:path';
import { z } from 'zod';
import { readJsonFile, updateJsonFileAsync } from '../config/json-file.js';

/*
 * Each user's recently chosen models, newest first, in `<dataDir>/recent-models.json`
 * (`{"version": 1, "users": {"ada": ["anthropic/claude-sonnet-4-5", …]}}`), so the model picker
 * offers them first on any browser. Kept apart from pi's files (pi keeps no such list). Written in
 * the background, read-merge-write under the file's lock, so two servers on one data folder keep
 * each other's choices; a choice that cannot be saved is only not remembered.
 */

/** How many models each user's list keeps. */
export const RECENT_MODELS = 6;

const FileSchema = z.object({
  version: z.literal(1),
  users: z.record(z.string(), z.array(z.string()).max(RECENT_MODELS)),
});
type RecentFile = z.infer<typeof FileSchema>;

export interface ModelPair {
  provider: string;
  modelId: string;
}

const textOf = (pair: ModelPair) => `${pair.provider}/${pair.modelId}`;

function pairOf(text: string): ModelPair | undefined {
  const slash = text.indexOf('/');
  return slash > 0 ? { provider: text.slice(0, slash), modelId: text.slice(slash + 1) } : undefined;
}

function parse(json: unknown): RecentFile {
  const parsed = FileSchema.safeParse(json ?? { version: 1, users: {} });
  // An unreadable list is started again rather than refusing every choice.
  return parsed.success ? parsed.data : { version: 1, users: {} };
}

export class RecentModels {
  private readonly file: string;
  private chain: Promise<unknown> = Promise.resolve();

  constructor(dataDir: string) {
    this.file = path.join(dataDir, 'recent-models.json');
  }

  /** `user`'s recent models, newest first. */
  of(user: string): ModelPair[] {
    let file: RecentFile;
    try {
      file = parse(readJsonFile(this.file));
    } catch {
      return [];
    }
    const texts = Object.hasOwn(file.users, user) ? file.users[user]! : [];
    return texts.flatMap((text) => pairOf(text) ?? []);
  }

  /** Puts `pair` first in `user`'s list; resolves once it is on disk. */
  chose(user: string, pair: ModelPair): Promise<void> {
    const next = this.chain.then(() =>
      updateJsonFileAsync(this.file, (current) => {
        const file = parse(current);
        const before = Object.hasOwn(file.users, user) ? file.users[user]! : [];
        const text = textOf(pair);
        file.users[user] = [text, ...before.filter((t) => t !== text)].slice(0, RECENT_MODELS);
        return file;
      }),
    );
    this.chain = next.catch(() => undefined);
    return next.then(() => undefined);
  }
}
