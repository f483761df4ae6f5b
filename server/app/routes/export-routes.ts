import type { FastifyInstance } from 'fastify';
import { create as contentDisposition } from 'content-disposition';
import { z } from 'zod';
import { titleFileName } from '../../../shared/session-title.js';
import { SessionIdSchema } from '../../../shared/protocol.js';
import type { SessionLocator } from '../../config/session-locator.js';
import { ArborError } from '../../errors/error-catalog.js';
import type { SessionExporter } from '../../export/export-runner.js';

const Params = z.object({ id: SessionIdSchema });
const Query = z.object({ scope: z.enum(['path', 'all']).default('all') });

/** Seconds a refused export is told to wait: about what an export of a large session takes. */
const RETRY_AFTER_SECONDS = 5;

/**
 * `GET /api/sessions/:id/export.html?scope=path|all`: the session as one self-contained HTML page,
 * as a download, streamed from a worker (export-runner.ts). Reading is all it needs, as the JSONL
 * download (every user reads every session of a configured workspace, shared/authorisation.ts);
 * ids outside them answer 404.
 */
export async function exportRoutes(
  app: FastifyInstance,
  deps: { locator: SessionLocator; exporter: SessionExporter },
) {
  app.get('/api/sessions/:id/export.html', async (request, reply) => {
    const params = Params.safeParse(request.params);
    const location = params.success ? deps.locator.locate(params.data.id) : undefined;
    if (!params.success || !location) throw new ArborError('not_found', 'No such session.');
    const query = Query.safeParse(request.query);
    if (!query.success) throw new ArborError('invalid_argument', 'scope is "path" or "all".');
    let exported;
    try {
      exported = await deps.exporter.start({
        file: location.file,
        scope: query.data.scope,
        caller: request.user?.name ?? `address ${request.ip}`,
        logFault: (detail) => request.log.error({ detail }, 'export failed'),
      });
    } catch (error) {
      if (error instanceof ArborError && error.code === 'rate_limited') {
        reply.header('retry-after', String(RETRY_AFTER_SECONDS));
      }
      throw error;
    }
    // Named as the page is titled (the session's name or first prompt), not `<timestamp>_<uuid>`.
    const suffix = query.data.scope === 'path' ? '-path.html' : '.html';
    return reply
      .type('text/html; charset=utf-8')
      .header('content-disposition', contentDisposition(titleFileName(exported.title, suffix)))
      .send(exported.page);
  });
}
