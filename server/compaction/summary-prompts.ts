/*
 * The words Arbor says to a model when it asks for a summary. Sections follow pi's checkpoint
 * format (so summaries written by either tool read alike), with one addition that users of other
 * tools asked for: the user's own requests are carried verbatim, the latest one always.
 */

export const SUMMARIZATION_SYSTEM_PROMPT = `You are a context summarization assistant. You read a conversation between a user and an AI coding assistant and write a structured summary in the exact format you are given.

Do not continue the conversation. Do not answer questions found in it. Output only the structured summary.`;

const VERBATIM_RULE = `Copy the user's own requests word for word into "User Requests (verbatim)", each as a quoted block, oldest first. Never paraphrase them. The latest user request must always be there in full.`;

const CHECKPOINT_FORMAT = `## Goal
[What the user is trying to accomplish; several items if the session covers several tasks.]

## User Requests (verbatim)
> [Each request exactly as the user wrote it, oldest first; the latest always included.]

## Constraints & Preferences
- [Constraints, preferences and requirements the user stated, or "(none)".]

## Progress
### Done
- [x] [Completed tasks and changes]

### In Progress
- [ ] [Current work]

### Blocked
- [What prevents progress, if anything]

## Key Decisions
- **[Decision]**: [Short rationale]

## Next Steps
1. [What should happen next, in order]

## Critical Context
- [Data, examples and references needed to continue, or "(none)".]`;

export const INITIAL_SUMMARY_INSTRUCTIONS = `The text above is a conversation to summarize. Write a structured checkpoint that another model will use to continue the work.

Use exactly this format:

${CHECKPOINT_FORMAT}

${VERBATIM_RULE}
Keep each section short. Keep exact file paths, function names and error messages.`;

export const UPDATE_SUMMARY_INSTRUCTIONS = `The text above holds NEW conversation messages and, in <previous-summary>, the summary of everything before them. Update that summary.

Rules:
- Keep everything the previous summary says unless it is clearly no longer relevant.
- Add the new progress, decisions and context.
- Move items from "In Progress" to "Done" when they were completed.
- Refresh "Next Steps" from what was accomplished.
- Keep the previous summary's verbatim user requests and add the new ones after them.
- Keep exact file paths, function names and error messages.

Use exactly this format:

${CHECKPOINT_FORMAT}

${VERBATIM_RULE}
Keep each section short.`;

export const TURN_PREFIX_INSTRUCTIONS = `This is the BEGINNING of a turn that was too long to keep. The rest of the turn (the recent work) is kept as it is.

Summarize this beginning so that the kept rest makes sense:

## Original Request
> [The user's request for this turn, word for word.]

## Early Progress
- [Decisions made and work done in this beginning]

## Context for Suffix
- [What is needed to understand the kept recent work]

Be brief, but copy the original request exactly.`;

export const BRANCH_SUMMARY_INSTRUCTIONS = `Write a structured summary of this conversation branch, to give context when the user comes back to it later.

Use exactly this format:

## Goal
[What the user was trying to accomplish in this branch]

## User Requests (verbatim)
> [Each request exactly as the user wrote it, oldest first; the latest always included.]

## Constraints & Preferences
- [Constraints, preferences and requirements mentioned, or "(none)".]

## Progress
### Done
- [x] [Completed tasks and changes]

### In Progress
- [ ] [Work started but not finished]

### Blocked
- [What prevented progress, if anything]

## Key Decisions
- **[Decision]**: [Short rationale]

## Next Steps
1. [What should happen next to continue this work]

Keep each section short. Keep exact file paths, function names and error messages.`;

export const BRANCH_SUMMARY_PREAMBLE = `The user explored a different conversation branch before returning here.
Summary of that exploration:

`;

/** Said inside the conversation when its oldest part had to be left out of the request. */
export function omittedNotice(omittedMessages: number): string {
  return `[Earlier material omitted: ${omittedMessages} older message${omittedMessages === 1 ? '' : 's'} did not fit in this summary request. Summarize what is shown, and keep what the previous summary says about earlier work.]`;
}

/** The instructions with custom focus appended ("Additional focus"), or replacing them. */
export function withCustomInstructions(
  base: string,
  customInstructions: string | undefined,
  replace = false,
): string {
  const custom = customInstructions?.trim();
  if (!custom) return base;
  if (replace) return custom;
  return `${base}\n\nAdditional focus: ${custom}`;
}

/** The single user message of a summary request: the conversation, the previous summary, the task. */
export function summaryPromptText(
  conversationText: string,
  instructions: string,
  previousSummary?: string,
): string {
  let text = `<conversation>\n${conversationText}\n</conversation>\n\n`;
  if (previousSummary) text += `<previous-summary>\n${previousSummary}\n</previous-summary>\n\n`;
  return text + instructions;
}

/** How a split turn's two summaries become one, as pi joins them. */
export function mergeSplitTurnSummaries(historySummary: string, turnPrefixSummary: string): string {
  return `${historySummary}\n\n---\n\n**Turn Context (split turn):**\n\n${turnPrefixSummary}`;
}

export const NO_PRIOR_HISTORY = 'No prior history.';
export const NO_BRANCH_CONTENT = 'No content to summarize';
