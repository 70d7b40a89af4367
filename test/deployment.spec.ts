import { readFileSync } from 'node:fs';
import { CONFIG_VARIABLES } from '@app/config';
import { join } from 'node:path';
import { parse } from 'yaml';

type StringOrList = string | string[];
type Environment = Record<string, string | number | boolean | null> | string[];
type DependsOn = string[] | Record<string, { condition?: string }>;

interface Service {
  image?: string;
  command?: StringOrList;
  restart?: string;
  environment?: Environment;
  depends_on?: DependsOn;
  healthcheck?: { test?: StringOrList; disable?: boolean };
}

interface ComposeFile {
  services: Record<string, Service | undefined>;
}

const root = join(__dirname, '..');
const read = (file: string): string => readFileSync(join(root, file), 'utf8');

const composeText = read('docker-compose.yml');
const compose = parse(composeText) as ComposeFile;
const envExample = read('.env.example');
const dockerfile = read('Dockerfile');

/** Every setting the apps read; the compose file must pass each one to the gateway services. */
const APP_SETTINGS: readonly string[] = CONFIG_VARIABLES;
const SECRETS = ['DATABASE_URL', 'REDIS_URL', 'ADMIN_API_KEY', 'ENCRYPTION_KEY'];

function service(name: string): Service {
  const found = compose.services[name];
  if (!found) throw new Error(`docker-compose.yml has no service ${name}`);
  return found;
}

function words(value: StringOrList | undefined): string {
  return Array.isArray(value) ? value.join(' ') : (value ?? '');
}

function environmentKeys(environment: Environment | undefined): string[] {
  if (!environment) return [];
  return Array.isArray(environment) ? environment.map((entry) => entry.split('=')[0]) : Object.keys(environment);
}

function dependencies(svc: Service): Record<string, string | undefined> {
  const dependsOn = svc.depends_on ?? {};
  if (Array.isArray(dependsOn)) return Object.fromEntries(dependsOn.map((name) => [name, 'service_started']));
  return Object.fromEntries(Object.entries(dependsOn).map(([name, options]) => [name, options.condition]));
}

/** Names in ${VAR}, ${VAR:-default}, ${VAR:?message} and $VAR, but not the escaped $${VAR}. */
function interpolatedVariables(text: string): string[] {
  const names = [...text.matchAll(/(?<!\$)\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1]);
  return [...new Set(names)];
}

function documentedVariables(): string[] {
  return [...envExample.matchAll(/^([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]);
}

function finalStage(): string {
  const stages = dockerfile.split(/^FROM\s/im);
  return stages[stages.length - 1];
}

describe('docker-compose.yml', () => {
  it('defines postgres, redis, a one-shot migrate, the api and the worker', () => {
    expect(Object.keys(compose.services)).toEqual(expect.arrayContaining(['postgres', 'redis', 'migrate', 'api', 'worker']));
  });

  it('runs redis with AOF everysec and noeviction', () => {
    const command = words(service('redis').command);
    expect(command).toMatch(/--appendonly yes\b/);
    expect(command).toMatch(/--appendfsync everysec\b/);
    expect(command).toMatch(/--maxmemory-policy noeviction\b/);
  });

  it('runs migrations once, after postgres is healthy', () => {
    const migrate = service('migrate');
    expect(migrate.restart ?? 'no').toBe('no');
    expect(words(migrate.command)).toContain('scripts/migrate.mjs');
    expect(dependencies(migrate).postgres).toBe('service_healthy');
  });

  it.each(['api', 'worker'])('starts the %s only after migrations succeeded and postgres and redis are healthy', (name) => {
    expect(dependencies(service(name))).toMatchObject({
      migrate: 'service_completed_successfully',
      postgres: 'service_healthy',
      redis: 'service_healthy',
    });
  });

  it.each(['postgres', 'redis', 'api', 'worker'])('health-checks %s', (name) => {
    const healthcheck = service(name).healthcheck;
    expect(healthcheck?.disable).not.toBe(true);
    expect(words(healthcheck?.test)).not.toBe('');
  });

  it('checks the api readiness on port 3000 and the worker on its health port 3001', () => {
    expect(words(service('api').healthcheck?.test)).toContain(':3000/health/ready');
    expect(words(service('worker').healthcheck?.test)).toContain(':3001/health');
  });

  it('runs the worker and the api from the same image', () => {
    expect(service('worker').image).toBe(service('api').image);
    expect(service('migrate').image).toBe(service('api').image);
    expect(words(service('worker').command)).toContain('dist/apps/worker/src/main.js');
  });

  it.each(['api', 'worker', 'migrate'])('passes every app setting to %s', (name) => {
    expect(environmentKeys(service(name).environment)).toEqual(expect.arrayContaining(APP_SETTINGS));
  });

  it('refuses to start without the secrets instead of falling back to defaults', () => {
    for (const secret of SECRETS) expect(composeText).toContain(`\${${secret}:?`);
  });
});

describe('.env.example', () => {
  it('documents every variable the compose services use', () => {
    const used = new Set(interpolatedVariables(composeText));
    for (const svc of Object.values(compose.services)) for (const key of environmentKeys(svc?.environment)) used.add(key);
    const documented = documentedVariables();
    expect([...used].filter((name) => !documented.includes(name))).toEqual([]);
  });

  it('documents every app setting', () => {
    const documented = documentedVariables();
    expect(APP_SETTINGS.filter((name) => !documented.includes(name))).toEqual([]);
  });

  it('explains each variable in a comment on the line above it', () => {
    const lines = envExample.split('\n');
    const unexplained = lines.filter((line, index) => /^[A-Z][A-Z0-9_]*=/.test(line) && !lines[index - 1]?.startsWith('#'));
    expect(unexplained).toEqual([]);
  });

  it('ships no usable secrets', () => {
    expect(envExample).toMatch(/^ADMIN_API_KEY=$/m);
    expect(envExample).toMatch(/^ENCRYPTION_KEY=$/m);
  });
});

describe('Dockerfile', () => {
  it('builds in separate stages', () => {
    expect(dockerfile.match(/^FROM\s/gim)?.length ?? 0).toBeGreaterThanOrEqual(2);
  });

  it('runs the final image as a non-root user', () => {
    const users = [...finalStage().matchAll(/^USER\s+(\S+)/gim)].map((match) => match[1]);
    expect(users.length).toBeGreaterThan(0);
    expect(['root', '0', '0:0']).not.toContain(users[users.length - 1]);
  });

  it('declares a healthcheck', () => {
    expect(dockerfile).toMatch(/^HEALTHCHECK\s+(?!NONE)/im);
  });
});
