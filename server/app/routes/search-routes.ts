import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  SEARCH_QUERY_MAX,
  type SearchAnswer,
  type SearchHit,
  type SessionSearchResult,
} from '../../../shared/rest-shapes.js';
import { runSearchInWorker } from '../../search/search-runner.js';
import { DEFAULT_SEARCH_LIMITS, type SearchJob } from '../../search/session-search.js';
import { hitAt, textMatcher } from '../../search/text-match.js';
import { ArborError } from '../../errors/error-catalog.js';
import { ImportSlots } from './import-slots.js';
import { listWorkspaceSessions, workspaceOf, type WorkspaceRouteDeps } from './workspace-routes.js';

/** Searches that may run at once; further ones are answered 503 with Retry-After. */
export const SEARCH_CONCURRENCY = 2;
/** Wall-clock budget of one search; what was found by then is answered, marked incomplete. */
export const SEARCH_TIME_BUDGET_MS = 10_000;

const SearchQuery = z.object({ q: z.string().optional() });

function noteOf(outcome: string, capped: boolean, partialFiles: number): string | undefined {
  const parts: string[] = [];
  if (outcome === 'timeout')
    parts.push('the search ran out of time; older sessions were not searched');
  if (capped)
    parts.push(
      `only the newest ${DEFAULT_SEARCH_LIMITS.maxSessions} sessions with matches are listed`,
    );
  if (partialFiles > 0)
    parts.push(
      `${partialFiles} very large session${partialFiles === 1 ? ' was' : 's were'} searched in part`,
    );
  return parts.length ? `${parts.join('; ')}.` : undefined;
}

/**
 * Full-text search of a workspace's sessions: every prompt, the assistant's text and tool output
 * of every session, and session names. Readable by whoever may list the workspace (every user).
 * The files are read in a worker thread, within a time budget and per-file byte budget, and the
 * worker is stopped when the client goes away.
 */
export async function searchRoutes(app: FastifyInstance, deps: WorkspaceRouteDeps) {
  const slots = new ImportSlots(SEARCH_CONCURRENCY);

  app.get('/api/workspaces/:id/search', async (request, reply) => {
    const workspace = workspaceOf(deps.locator, request.params);
    const parsed = SearchQuery.safeParse(request.query);
    const q = parsed.success ? (parsed.data.q ?? '').trim() : '';
    if (!q) throw new ArborError('invalid_argument', 'Say what to search for (q).');
    if (q.length > SEARCH_QUERY_MAX) {
      throw new ArborError(
        'invalid_argument',
        `Search for at most ${SEARCH_QUERY_MAX} characters (this was ${q.length}).`,
      );
    }
    const release = slots.tryAcquire();
    if (!release) {
      return reply
        .code(503)
        .header('retry-after', '1')
        .send({
          error: { code: 'unavailable', message: 'Other searches are running; try again.' },
        });
    }
    const controller = new AbortController();
    const onClose = () => {
      if (!reply.raw.writableEnded) controller.abort();
    };
    reply.raw.once('close', onClose);
    try {
      const sessions = await listWorkspaceSessions(deps, workspace, request.user);
      const matcher = textMatcher(q);
      const nameHits = new Map<string, SearchHit>();
      const files: SearchJob['files'] = [];
      for (const session of sessions) {
        const at = session.name !== undefined ? matcher.find(session.name) : undefined;
        if (at) nameHits.set(session.id, hitAt(session.name!, at, 'name'));
        const file = deps.locator.locate(session.id)?.file;
        if (file) files.push({ sessionId: session.id, file });
      }
      const run = await runSearchInWorker(
        { query: q, files, limits: DEFAULT_SEARCH_LIMITS },
        { signal: controller.signal, budgetMs: SEARCH_TIME_BUDGET_MS },
      );
      if (run.outcome === 'failed') {
        request.log.error({ message: run.message }, 'session search failed');
        throw new ArborError('internal', 'The search failed; try again.');
      }
      const found = new Map(run.results.map((result) => [result.sessionId, result]));
      const results: SessionSearchResult[] = [];
      for (const session of sessions) {
        const inText = found.get(session.id);
        const byName = nameHits.get(session.id);
        if (!inText && !byName) continue;
        results.push({
          sessionId: session.id,
          hits: [...(byName ? [byName] : []), ...(inText?.hits ?? [])],
          moreHits: inText?.moreHits ?? false,
        });
      }
      const { capped, partialFiles } = run.summary;
      const complete = run.outcome === 'done' && !capped && partialFiles === 0;
      const note = noteOf(run.outcome, capped, partialFiles);
      const answer: SearchAnswer = { results, complete, ...(note ? { note } : {}) };
      return answer;
    } finally {
      reply.raw.off('close', onClose);
      release();
    }
  });
}
