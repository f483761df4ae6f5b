// Under Node 22: median ms of pi 1.6's DefaultResourceLoader.reload() + buildSystemPromptSections.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [pkg, cwd, agentDir, rounds] = process.argv.slice(2);
const load = (file) => import(pathToFileURL(path.join(pkg, file)).href);
const { DefaultResourceLoader } = await load('dist/index.js');
const { buildSystemPromptSections } = await load('dist/core/system-prompt.js');
const times = [];
for (let i = 0; i < Number(rounds); i++) {
  const start = performance.now();
  const loader = new DefaultResourceLoader({ cwd, agentDir, noExtensions: true, noThemes: true });
  await loader.reload();
  buildSystemPromptSections({
    cwd,
    contextFiles: loader.getAgentsFiles().agentsFiles,
    skills: loader.getSkills().skills,
    selectedTools: ['read'],
  });
  times.push(performance.now() - start);
}
times.sort((a, b) => a - b);
process.stdout.write(JSON.stringify({ median: times[times.length >> 1] }));
