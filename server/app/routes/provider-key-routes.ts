import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { mayManageKeys } from '../../../shared/authorisation.js';
import { ArborError } from '../../errors/error-catalog.js';
import type { ProviderList } from '../../../shared/rest-shapes.js';
import { MAX_KEY_LENGTH, PROVIDER_ID, type AuthFile } from '../../models/auth-file.js';
import type { ModelCatalog } from '../../models/model-catalog.js';

const Params = z.object({ provider: z.string().regex(PROVIDER_ID) });
// A key is one line of printable text: no control characters to smuggle into a header or a file.
const Body = z.object({
  key: z
    .string()
    .min(1)
    .max(MAX_KEY_LENGTH)
    .regex(/^[^\p{Cc}]+$/u),
});

function provider(request: FastifyRequest): string {
  if (!request.user || !mayManageKeys(request.user))
    throw new ArborError('forbidden', 'Only an admin may change API keys.');
  const params = Params.safeParse(request.params);
  if (!params.success)
    throw new ArborError('invalid_argument', 'A provider id is letters, digits, ".", "_" and "-".');
  return params.data.provider;
}

/**
 * An admin's API keys, saved in pi's auth.json (auth-file.ts), where pi and Arbor both read them:
 * `PUT /api/providers/:provider/key` with `{"key": "…"}` and `DELETE` of the same. The key is
 * never answered back, logged or sent to a page; the models' listing says only whether one is set.
 */
export async function providerKeyRoutes(
  app: FastifyInstance,
  deps: {
    auth: AuthFile;
    catalog(): ModelCatalog;
    /** Open pages see which models now have a key. */
    onChange: () => void;
  },
) {
  app.get('/api/providers', async (request): Promise<ProviderList> => {
    if (!request.user || !mayManageKeys(request.user))
      throw new ArborError('forbidden', 'Only an admin may see where the API keys come from.');
    return { providers: deps.catalog().providerKeys() };
  });

  app.put('/api/providers/:provider/key', async (request, reply) => {
    const id = provider(request);
    const body = Body.safeParse(request.body);
    if (!body.success)
      throw new ArborError(
        'invalid_argument',
        `Send {"key": "…"}: one line of at most ${MAX_KEY_LENGTH} characters.`,
      );
    await deps.auth.setKey(id, body.data.key);
    request.log.info({ provider: id, by: request.user?.name }, 'API key saved');
    deps.onChange();
    return reply.code(204).send();
  });

  app.delete('/api/providers/:provider/key', async (request, reply) => {
    const id = provider(request);
    if (!(await deps.auth.removeKey(id)))
      throw new ArborError('not_found', `No key is saved for provider "${id}".`);
    request.log.info({ provider: id, by: request.user?.name }, 'API key removed');
    deps.onChange();
    return reply.code(204).send();
  });
}
