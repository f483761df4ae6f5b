// Runs under pi 1.6's own Node (see pi16-oracle.ts): reads `<agentDir>/models.json` with pi 1.6's
// ModelRuntime and prints, as one JSON line, every model of the providers named in argv with the
// key pi would send (models whose key is a command are not to be asked for: pi would run it).
import { pathToFileURL } from 'node:url';

const [piIndex, agentDir, providersJson] = process.argv.slice(2);
const providers = new Set(JSON.parse(providersJson));
const { ModelRuntime } = await import(pathToFileURL(piIndex).href);
const runtime = await ModelRuntime.create({
  modelsPath: `${agentDir}/models.json`,
  authPath: `${agentDir}/auth.json`,
});
const models = [];
for (const model of runtime.getModels()) {
  if (!providers.has(model.provider)) continue;
  let apiKey;
  try {
    apiKey = (await runtime.getAuth(model))?.auth.apiKey ?? null;
  } catch {
    apiKey = null;
  }
  const { provider, id, name, api, baseUrl, contextWindow, maxTokens, reasoning, input, cost } =
    model;
  models.push({
    provider,
    id,
    name,
    api,
    baseUrl,
    contextWindow,
    maxTokens,
    reasoning,
    input,
    cost,
    thinkingLevelMap: model.thinkingLevelMap ?? null,
    headers: model.headers ?? null,
    compat: model.compat ?? null,
    apiKey,
  });
}
process.stdout.write(JSON.stringify({ error: runtime.getError?.() ?? null, models }) + '\n');
