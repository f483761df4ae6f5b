import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { SessionIdSchema } from '../../../shared/protocol.js';
import type { SessionLocator } from '../../config/session-locator.js';
import { ArborError } from '../../errors/error-catalog.js';
import { exportSessionFile } from '../../export/export-session.js';

const Params = z.object({ id: SessionIdSchema });
const Query = z.object({ scope: z.enum(['path', 'all']).default('all') });

/**
 * `GET /api/sessions/:id/export.html?scope=path|all`: the session as one self-contained HTML page,
 * as a download. Reading is all it needs, as the JSONL download (every user reads every session of
 * a configured workspace, shared/authorisation.ts); ids outside them answer 404.
 */
export async function exportRoutes(app: FastifyInstance, deps: { locator: SessionLocator }) {
  app.get('/api/sessions/:id/export.html', async (request, reply) => {
    const params = Params.safeParse(request.params);
    const location = params.success ? deps.locator.locate(params.data.id) : undefined;
    if (!params.success || !location) throw new ArborError('not_found', 'No such session.');
    const query = Query.safeParse(request.query);
    if (!query.success) throw new ArborError('invalid_argument', 'scope is "path" or "all".');
    const html = exportSessionFile(location.file, query.data.scope);
    const name = `${path.basename(location.file, '.jsonl')}${query.data.scope === 'path' ? '-path' : ''}.html`;
    return reply
      .type('text/html; charset=utf-8')
      .header('content-disposition', `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"`)
      .send(html);
  });
}
