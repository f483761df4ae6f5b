// Runs under pi 1.6's own Node (see pi16-oracle.ts): resolves each text of argv's JSON with pi
// 1.6's own `resolveCliModel` (what `pi --model TEXT` does) over pi's built-in catalog, with the
// providers named in argv counted as having a key, and prints one JSON line: the catalog (provider,
// id, name) and each result.
import { pathToFileURL } from 'node:url';

const [piIndex, agentDir, requestJson] = process.argv.slice(2);
const { texts, usable, scopes = [] } = JSON.parse(requestJson);
const keyed = new Set(usable);
const { ModelRuntime, resolveCliModel, resolveModelScopeWithDiagnostics } = await import(
  pathToFileURL(piIndex).href
);
const runtime = await ModelRuntime.create({
  modelsPath: `${agentDir}/models.json`,
  authPath: `${agentDir}/auth.json`,
});
const catalog = runtime.getModels();
const modelRuntime = {
  getModels: () => catalog,
  hasConfiguredAuth: (provider) => keyed.has(provider),
};
const results = texts.map((cliModel) => {
  const result = resolveCliModel({ cliModel, modelRuntime });
  return {
    text: cliModel,
    provider: result.model?.provider ?? null,
    id: result.model?.id ?? null,
    thinkingLevel: result.thinkingLevel ?? null,
    warning: result.warning ?? null,
    error: result.error ?? null,
  };
});
// Each list of enabledModels patterns, scoped as pi scopes them over the whole catalog.
const scoped = [];
for (const patterns of scopes) {
  const { scopedModels } = await resolveModelScopeWithDiagnostics(patterns, {
    getAvailable: async () => catalog,
  });
  scoped.push(scopedModels.map(({ model }) => `${model.provider}/${model.id}`));
}
process.stdout.write(
  JSON.stringify({
    models: catalog.map(({ provider, id, name }) => ({ provider, id, name })),
    results,
    scoped,
  }) + '\n',
);
