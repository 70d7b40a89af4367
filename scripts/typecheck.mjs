#!/usr/bin/env node
// `npm run typecheck`: the one type-check of the project's TypeScript. The server, tests and benches (tsconfig.json) are
// analysed once, and that same analysis writes the API's OpenAPI metadata (scripts/generate-openapi-metadata.mjs), which
// the build then only reads; the dashboard and the client package, compiled with other settings, are checked by their
// own tsc beside it. Fails on any type error, and when the committed metadata was stale (it is rewritten: commit it).
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { METADATA_FILE, refreshOpenApiMetadata } from './generate-openapi-metadata.mjs';

const require = createRequire(import.meta.url);
const ts = require('typescript');
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** The smaller projects, as their own processes: they use the second core while the main program is analysed. */
function checkProject(config) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [tsc, '-p', config, '--pretty'], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => resolve({ name: config, ok: code === 0, output }));
  });
}

function checkMainProgram() {
  const host = { ...ts.sys, onUnRecoverableConfigFileDiagnostic: (diagnostic) => failWith([diagnostic]) };
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), { noEmit: true }, host);
  const program = ts.createProgram({ rootNames: config.fileNames, options: config.options, projectReferences: config.projectReferences });
  const diagnostics = ts.getPreEmitDiagnostics(program);
  const metadataChanged = refreshOpenApiMetadata(program);
  return { name: 'tsconfig.json', ok: diagnostics.length === 0 && !metadataChanged, diagnostics, metadataChanged };
}

function failWith(diagnostics) {
  console.error(format(diagnostics));
  process.exit(1);
}

function format(diagnostics) {
  return ts.formatDiagnosticsWithColorAndContext(diagnostics, {
    getCanonicalFileName: (path) => path,
    getCurrentDirectory: () => root,
    getNewLine: () => ts.sys.newLine,
  });
}

const started = Date.now();
const others = [checkProject('apps/dashboard/tsconfig.json'), checkProject('libs/client/tsconfig.json')];
const main = checkMainProgram();
const results = [main, ...(await Promise.all(others))];
if (main.diagnostics.length > 0) console.error(format(main.diagnostics));
if (main.metadataChanged) {
  console.error(`typecheck: ${relative(root, METADATA_FILE)} did not match the API's types and has been rewritten: commit it`);
}
for (const { name, ok, output } of results.slice(1)) if (!ok) console.error(`typecheck: ${name}\n${output}`);
const failed = results.filter((result) => !result.ok).map((result) => result.name);
const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
if (failed.length > 0) {
  console.error(`typecheck: failed (${failed.join(', ')}) in ${took}`);
  process.exit(1);
}
console.log(`typecheck: tsconfig.json, apps/dashboard and libs/client have no type errors; the OpenAPI metadata is current (${took})`);
