import fs from 'node:fs';
import path from 'node:path';

/**
 * A pi models.json in `dir` with one OpenAI-compatible provider, `local`, whose one model
 * `local-model` has no key of its own: its key must come from auth.json or nowhere.
 */
export function writeLocalProvider(dir: string): void {
  fs.writeFileSync(
    path.join(dir, 'models.json'),
    JSON.stringify({
      providers: {
        local: {
          api: 'openai-completions',
          baseUrl: 'http://127.0.0.1:9/v1',
          models: [{ id: 'local-model' }],
        },
      },
    }),
  );
}
