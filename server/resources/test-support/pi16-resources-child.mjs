// Runs under Node 22: pi 1.6's own resource loading for a folder, printed as JSON.
// argv: <pi package dir> <cwd> <agentDir> <json: {tools, templateInputs}>
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [pkg, cwd, agentDir, json] = process.argv.slice(2);
const load = (file) => import(pathToFileURL(path.join(pkg, file)).href);
const { DefaultResourceLoader } = await load('dist/index.js');
const { buildSystemPromptSections } = await load('dist/core/system-prompt.js');
const { expandPromptTemplate } = await load('dist/core/prompt-templates.js');
const input = JSON.parse(json);

const loader = new DefaultResourceLoader({ cwd, agentDir, noExtensions: true, noThemes: true });
await loader.reload();
const { agentsFiles } = loader.getAgentsFiles();
const { skills, diagnostics: skillDiagnostics } = loader.getSkills();
const { prompts, diagnostics: promptDiagnostics } = loader.getPrompts();
const sections = buildSystemPromptSections({
  cwd,
  contextFiles: agentsFiles,
  skills,
  selectedTools: input.tools,
  toolSnippets: {},
});
process.stdout.write(
  JSON.stringify({
    contextFiles: agentsFiles.map(({ path: file, content }) => ({ path: file, content })),
    skills: skills.map((s) => ({
      name: s.name,
      description: s.description,
      filePath: s.filePath,
      disableModelInvocation: s.disableModelInvocation,
    })),
    skillDiagnostics: skillDiagnostics.map((d) => ({
      type: d.type,
      path: d.path,
      message: d.message,
    })),
    prompts: prompts.map((p) => ({
      name: p.name,
      description: p.description,
      argumentHint: p.argumentHint,
      content: p.content,
      filePath: p.filePath,
    })),
    promptDiagnostics: promptDiagnostics.map((d) => ({
      type: d.type,
      path: d.path,
      message: d.message,
    })),
    sections: { project_context: sections.project_context, skills: sections.skills },
    expansions: input.templateInputs.map((text) => expandPromptTemplate(text, prompts)),
  }),
);
