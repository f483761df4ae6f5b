import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { mayChooseModels } from '../../../shared/authorisation.js';
import {
  ENABLED_PATTERNS_MAX,
  EnabledModelsSchema,
  MODEL_LIMIT_MAX,
  MODEL_QUERY_MAX,
  type EnabledModels,
  type EnabledModelsAnswer,
  type ModelList,
} from '../../../shared/rest-shapes.js';
import { ArborError } from '../../errors/error-catalog.js';
import type { SessionHub } from '../../hub/session-hub.js';
import type { ModelCatalog } from '../../models/model-catalog.js';
import { scopedModels, writeEnabledModels } from '../../models/pi-settings.js';

const Query = z.object({
  q: z.string().max(MODEL_QUERY_MAX).default(''),
  limit: z.coerce.number().int().min(1).max(MODEL_LIMIT_MAX).default(50),
});

export interface ModelRouteDeps {
  hub: SessionHub;
  dataDir: string;
  catalog(): ModelCatalog;
  /** Loads the catalog again after settings.json changed; absent when the server was given one. */
  reloadCatalog: (() => void) | undefined;
}

/**
 * The model catalog on demand, and the models a team uses.
 *
 * - `GET /api/models?q=claude sonnet&limit=50`: the models in use whose provider, id or name holds
 *   every word of q, with context window, price and whether a key is set (never a key), and how
 *   many match in all. Every snapshot offers only some (ModelCatalog.offered); a picker that takes
 *   typing reaches the rest here.
 * - `GET /api/models/recent`: the models the user chose lately (newest first), still in use.
 * - `GET /api/models/enabled`: pi's `enabledModels` patterns (null: every model is in use).
 * - `PUT /api/models/enabled` `{"patterns": [...] | null}`, admins only: saved in pi's
 *   settings.json as pi saves them, in use at once. A pattern that names no model is refused with
 *   its text, so a typo never empties the list.
 */
export async function modelRoutes(app: FastifyInstance, deps: ModelRouteDeps) {
  app.get('/api/models', async (request): Promise<ModelList> => {
    const parsed = Query.safeParse(request.query);
    if (!parsed.success)
      throw new ArborError(
        'invalid_argument',
        `Ask with q (at most ${MODEL_QUERY_MAX} characters) and limit (1 to ${MODEL_LIMIT_MAX}).`,
      );
    return deps.hub.searchModels(parsed.data.q, parsed.data.limit);
  });

  app.get('/api/models/recent', async (request): Promise<ModelList> => {
    const models = request.user ? deps.hub.recentModels(request.user.name) : [];
    return { models, total: models.length };
  });

  app.get('/api/models/enabled', async (): Promise<EnabledModels> => {
    return { patterns: deps.catalog().enabledPatterns() };
  });

  app.put('/api/models/enabled', async (request): Promise<EnabledModelsAnswer> => {
    if (!request.user || !mayChooseModels(request.user))
      throw new ArborError('forbidden', 'Only an admin may choose the models in use.');
    const body = EnabledModelsSchema.safeParse(request.body);
    if (!body.success)
      throw new ArborError(
        'invalid_argument',
        `Send {"patterns": [...]} (at most ${ENABLED_PATTERNS_MAX} patterns of at most ${MODEL_QUERY_MAX} characters) or {"patterns": null} for every model.`,
      );
    if (!deps.reloadCatalog)
      throw new ArborError('conflict', 'This server was started with a fixed model catalog.');
    const { patterns } = body.data;
    const every = deps.catalog().list();
    for (const pattern of patterns ?? []) {
      if (scopedModels([pattern], every).size === 0)
        throw new ArborError('invalid_argument', `No model matches "${pattern}".`);
    }
    await writeEnabledModels(deps.dataDir, patterns);
    deps.reloadCatalog();
    request.log.info({ by: request.user.name, patterns }, 'models in use changed');
    const inUse = patterns ? scopedModels(patterns, every).size : every.length;
    return { patterns, models: inUse };
  });
}
