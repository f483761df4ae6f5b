import { z } from 'zod';
import { ContextUsageSchema } from './protocol-events.js';
import type { UsageStats } from './session-stats.js';

/* The answer to `get_session_stats` (shared/session-stats.ts computes its figures). */

const TokenTotalsSchema = z.object({
  input: z.number(),
  output: z.number(),
  cacheRead: z.number(),
  cacheWrite: z.number(),
  total: z.number(),
});

export const UsageStatsSchema = z.object({
  userMessages: z.number().int(),
  assistantMessages: z.number().int(),
  toolCalls: z.number().int(),
  toolResults: z.number().int(),
  totalMessages: z.number().int(),
  tokens: TokenTotalsSchema,
  cost: z.number(),
  byModel: z.array(TokenTotalsSchema.extend({ key: z.string(), cost: z.number() })),
});

export const SessionStatsSchema = z.object({
  sessionId: z.string(),
  /** Every entry of the session, as pi 1.6's get_session_stats counts them. */
  session: UsageStatsSchema,
  /** The path from the root to `entryId` (the leaf unless asked otherwise). */
  branch: UsageStatsSchema,
  /** The entry the branch ends at (null: an empty path). */
  entryId: z.string().nullable(),
  contextUsage: ContextUsageSchema,
});
export type SessionStats = z.infer<typeof SessionStatsSchema>;

// Compile-time: the schema and the computation agree.
const same: z.infer<typeof UsageStatsSchema> extends UsageStats
  ? UsageStats extends z.infer<typeof UsageStatsSchema>
    ? true
    : false
  : false = true;
void same;
