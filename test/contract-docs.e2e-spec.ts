import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { EVENT_TYPES } from '@app/contracts';

// The repository stands alone: docs/api.md (the contract as implemented) lists exactly the OpenAPI document's
// operations with their success statuses, and exactly the event types; every document a comment or a page cites is in
// the repository; and only libs/config reads the environment.

const ROOT = join(__dirname, '..');
const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;
/** Markdown file names that are mentioned but not cited: Playwright writes `error-context.md` for a failed browser test. */
const NOT_CITATIONS = ['error-context.md'];

interface OpenApiDocument {
  paths: Record<string, Partial<Record<(typeof METHODS)[number], { responses: Record<string, unknown> }>>>;
}

/** The document the API serves at /docs-json, written by the built API without a database (npm run build). */
function openApiDocument(): OpenApiDocument {
  const writer = join(ROOT, 'dist', 'apps', 'api', 'src', 'openapi-document.js');
  if (!existsSync(writer)) throw new Error(`${writer} is missing: run \`npm run build\` (npm test does)`);
  const dir = mkdtempSync(join(tmpdir(), 'openapi-'));
  try {
    const file = join(dir, 'openapi.json');
    const result = spawnSync(process.execPath, [writer, file], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`openapi-document.js failed: ${result.stderr}`);
    return JSON.parse(readFileSync(file, 'utf8')) as OpenApiDocument;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `METHOD /path STATUS` for every operation: the lowest 2xx it documents. */
function documentedOperations(document: OpenApiDocument): string[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const operation = item[method];
      if (!operation) return [];
      const success = Object.keys(operation.responses)
        .filter((code) => /^2\d\d$/.test(code))
        .sort()[0];
      return [`${method.toUpperCase()} ${path} ${success ?? 'none'}`];
    }),
  );
}

/** The rows of docs/api.md's route tables: `| METHOD | `/path` | status | ... |`. */
function tabledOperations(markdown: string): string[] {
  return [...markdown.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) +\| `([^`]+)` +\| (\d{3}) +\|/gm)].map(
    ([, method, path, status]) => `${method} ${path} ${status}`,
  );
}

function tabledEvents(markdown: string): string[] {
  const section = markdown.split(/^## Events$/m)[1]?.split(/^## /m)[0] ?? '';
  return [...section.matchAll(/^\| `([a-z_]+)` +\|/gm)].map((match) => match[1]);
}

/** Every file under dir (recursively) whose name matches, skipping dependencies, build output and generated code. */
function filesUnder(dir: string, name: RegExp): string[] {
  const skip = new Set(['node_modules', 'dist', 'generated', '.test-tmp', 'screenshots', 'coverage']);
  const found: string[] = [];
  for (const entry of readdirSync(dir)) {
    if (skip.has(entry)) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found.push(...filesUnder(path, name));
    else if (name.test(entry)) found.push(path);
  }
  return found;
}

const SOURCES = [
  ...['apps', 'libs', 'test', 'scripts', 'bench', 'docs', 'deploy'].flatMap((dir) =>
    filesUnder(join(ROOT, dir), /\.(ts|tsx|mjs|md|yaml)$/),
  ),
  join(ROOT, 'README.md'),
  join(ROOT, 'Dockerfile'),
  join(ROOT, 'docker-compose.yml'),
].filter((file) => !file.endsWith('openapi-metadata.ts') && !file.endsWith('openapi-types.ts'));

describe('docs/api.md: the contract as this project implements it', () => {
  const markdown = readFileSync(join(ROOT, 'docs/api.md'), 'utf8');

  it('lists every operation of the OpenAPI document with its success status, and nothing else', () => {
    const documented = documentedOperations(openApiDocument());
    const tabled = tabledOperations(markdown);
    const row = (operation: string) => {
      const [method, path, status] = operation.split(' ');
      return `| ${method} | \`${path}\` | ${status} |`;
    };
    // Failure names the exact rows to add to (or remove from) docs/api.md.
    expect({
      rowsMissingFromDocsApiMd: documented.filter((operation) => !tabled.includes(operation)).map(row),
      rowsNotInOpenApi: tabled.filter((operation) => !documented.includes(operation)).map(row),
      rowsListedTwice: tabled.filter((operation, index) => tabled.indexOf(operation) !== index).map(row),
    }).toEqual({ rowsMissingFromDocsApiMd: [], rowsNotInOpenApi: [], rowsListedTwice: [] });
  });

  it('lists every event type (EVENT_TYPES), and nothing else', () => {
    const tabled = tabledEvents(markdown);
    expect({
      eventsMissingFromDocsApiMd: EVENT_TYPES.filter((type) => !tabled.includes(type)),
      eventsNotInEventTypes: tabled.filter((type) => !(EVENT_TYPES as readonly string[]).includes(type)),
    }).toEqual({ eventsMissingFromDocsApiMd: [], eventsNotInEventTypes: [] });
  });
});

describe('a repository that stands alone', () => {
  it('cites only documents that are in the repository', () => {
    const broken: string[] = [];
    for (const file of SOURCES) {
      const text = readFileSync(file, 'utf8');
      for (const match of text.matchAll(/(?<![\w./-])((?:\.{1,2}\/|[\w-]+\/)*[\w-]+\.md)\b/g)) {
        const cited = match[1];
        if (NOT_CITATIONS.includes(cited) || existsSync(join(ROOT, cited)) || existsSync(join(dirname(file), cited))) continue;
        broken.push(`${relative(ROOT, file)}: ${cited}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('names no document outside it (the contract and decisions are docs/api.md and docs/decisions.md)', () => {
    const outside = /messaging-gateway-api\.md|wsapi-[a-z]+\.yml|reference (API|events file|gateway|OpenAPI)|the reference's/i;
    const found = SOURCES.flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          outside.test(line) && !file.endsWith('contract-docs.e2e-spec.ts') ? [`${relative(ROOT, file)}:${index + 1}`] : [],
        ),
    );
    expect(found).toEqual([]);
  });

  it('reads the environment only in libs/config', () => {
    const readers = [...filesUnder(join(ROOT, 'apps'), /\.tsx?$/), ...filesUnder(join(ROOT, 'libs'), /\.ts$/)]
      .filter((file) => !file.startsWith(join(ROOT, 'libs', 'config')))
      .filter((file) => /\bprocess\.env\b|import\.meta\.env\b/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(readers).toEqual([]);
  });
});
