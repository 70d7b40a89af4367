import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { CONFIG_VARIABLES, loadConfig } from '@app/config';
import { subPrefix, testEnv } from './support/environment';
import { spawnApp, type AppProcess } from './support/processes';
import { ScratchDatabase } from './repositories/scratch-database';

// deploy/kubernetes rendered by kustomize, every object validated against Kubernetes' own schemas (kubernetes-models),
// and held to what the apps really read and serve: ports, probe paths, variables, the shutdown deadline. The migration
// Job's command migrates a fresh database, and the API and worker started with the manifests' environment answer the
// manifests' probes.

const ROOT = join(__dirname, '..');
const OVERLAY = join(ROOT, 'deploy', 'kubernetes', 'overlays', 'example');
const BASE = join(ROOT, 'deploy', 'kubernetes', 'base');
/** Settings that must never be written in a manifest: each comes from the Secret. */
const SECRET_VARIABLES = [
  'DATABASE_URL',
  'DATABASE_READ_URL',
  'DATABASE_MIGRATION_URL',
  'REDIS_URL',
  'REDIS_SENTINEL_PASSWORD',
  'ADMIN_API_KEY',
  'ENCRYPTION_KEY',
  'METRICS_TOKEN',
];
/** Set (not optional) in every gateway container: without them the apps refuse to start or would use a wrong default. */
const REQUIRED_SECRETS = ['DATABASE_URL', 'REDIS_URL', 'ADMIN_API_KEY', 'ENCRYPTION_KEY'];
/** The worker metric the example worker HPA scales on (issue 28, goal 1 adds it to the worker's /metrics). */
const WORKER_SCALING_METRIC = 'worker_sessions';

interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  spec?: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- shapes differ by kind; each is schema-validated
  data?: Record<string, string>;
}

interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: { name?: string; containerPort: number }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  env?: { name: string; value?: string; valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } } }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] }; sleep?: { seconds: number } } };
}

interface Probe {
  httpGet?: { path: string; port: number | string };
}

function render(dir: string): KubeObject[] {
  const kubectl = spawnSync('kubectl', ['version', '--client'], { encoding: 'utf8' });
  if (kubectl.error) {
    throw new Error('kubectl is not installed: the Kubernetes manifests are rendered with `kubectl kustomize` (install kubectl >= 1.27)');
  }
  const text = execFileSync('kubectl', ['kustomize', dir], { encoding: 'utf8' });
  return parseAllDocuments(text).map((document) => {
    if (document.errors.length > 0) throw new Error(`kustomize rendered invalid YAML: ${document.errors[0].message}`);
    return document.toJS() as KubeObject;
  });
}

/** The kubernetes-models class for the object's apiVersion and kind, e.g. `apps/v1` `Deployment`. */
function validate(object: KubeObject): void {
  const modulePath = `kubernetes-models/${object.apiVersion}/${object.kind}`;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the model to load depends on the rendered kind
  const model = require(modulePath) as Record<string, new (data: unknown) => { validate(): void }>;
  new model[object.kind](object).validate();
}

function find(objects: KubeObject[], kind: string, name: string): KubeObject {
  const found = objects.find((object) => object.kind === kind && object.metadata.name === name);
  if (!found) throw new Error(`no ${kind} ${name} among: ${objects.map((o) => `${o.kind}/${o.metadata.name}`).join(', ')}`);
  return found;
}

const containerOf = (workload: KubeObject): Container => (workload.spec.template.spec.containers as Container[])[0];

/** The ConfigMap a container's envFrom names (kustomize appends a content hash to the generated name). */
function configData(objects: KubeObject[], container: Container): Record<string, string> {
  const names = (container.envFrom ?? []).flatMap((source) => (source.configMapRef ? [source.configMapRef.name] : []));
  const data: Record<string, string> = {};
  for (const name of names) Object.assign(data, find(objects, 'ConfigMap', name).data ?? {});
  return data;
}

/** The container's environment as the process would see it, secrets filled from the test run's real values. */
function environmentOf(objects: KubeObject[], container: Container, secrets: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = { ...configData(objects, container) };
  for (const entry of container.env ?? []) {
    const ref = entry.valueFrom?.secretKeyRef;
    if (entry.value !== undefined) env[entry.name] = entry.value;
    else if (ref && secrets[ref.key] !== undefined) env[entry.name] = secrets[ref.key];
  }
  return env;
}

function setNames(container: Container, objects: KubeObject[]): string[] {
  return [...Object.keys(configData(objects, container)), ...(container.env ?? []).map((entry) => entry.name)];
}

function preStopSeconds(container: Container): number {
  const preStop = container.lifecycle?.preStop;
  if (preStop?.sleep) return preStop.sleep.seconds;
  const command = preStop?.exec?.command ?? [];
  return command[0] === 'sleep' ? Number(command[1]) : 0;
}

describe('Kubernetes manifests (deploy/kubernetes)', () => {
  const objects = render(OVERLAY);
  const api = find(objects, 'Deployment', 'gateway-api');
  const worker = find(objects, 'StatefulSet', 'gateway-worker');
  const migrate = find(objects, 'Job', 'gateway-migrate');
  const workloads = [api, worker, migrate];
  const fakeSecrets = {
    DATABASE_URL: 'postgresql://gateway:secret@postgres:5432/gateway',
    REDIS_URL: 'redis://:secret@redis:6379/0',
    ADMIN_API_KEY: 'J7q2vX9mL4pR8sT1wZ6bN3cF5hK0dG2a',
    ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  };

  it('renders the base and the example overlay into objects valid against Kubernetes schemas', () => {
    for (const object of [...render(BASE), ...objects]) {
      expect(() => validate(object)).not.toThrow();
    }
    expect(objects.map((object) => `${object.kind}/${object.metadata.name}`).sort()).toEqual(
      expect.arrayContaining([
        'Deployment/gateway-api',
        'HorizontalPodAutoscaler/gateway-api',
        'HorizontalPodAutoscaler/gateway-worker',
        'Job/gateway-migrate',
        'PodDisruptionBudget/gateway-worker',
        'Service/gateway-api',
        'Service/gateway-worker',
        'StatefulSet/gateway-worker',
      ]),
    );
  });

  it('fails clearly when an object breaks the schema', () => {
    const broken = structuredClone(api);
    containerOf(broken).ports![0].containerPort = 'http' as unknown as number;
    expect(() => validate(broken)).toThrow(/containerPort must be integer/);
  });

  it('sets only variables libs/config reads, with every secret from the Secret and every required one present', () => {
    for (const workload of workloads) {
      const container = containerOf(workload);
      const unknown = setNames(container, objects).filter((name) => !(CONFIG_VARIABLES as readonly string[]).includes(name));
      expect({ workload: workload.metadata.name, unknown }).toEqual({ workload: workload.metadata.name, unknown: [] });
      const inConfigMap = Object.keys(configData(objects, container)).filter((name) => SECRET_VARIABLES.includes(name));
      const written = (container.env ?? []).filter((entry) => SECRET_VARIABLES.includes(entry.name) && !entry.valueFrom?.secretKeyRef);
      expect({ workload: workload.metadata.name, inConfigMap, written }).toEqual({
        workload: workload.metadata.name,
        inConfigMap: [],
        written: [],
      });
      for (const entry of container.env ?? []) {
        const ref = entry.valueFrom?.secretKeyRef;
        if (ref)
          expect({ name: entry.name, secret: ref.name, key: ref.key }).toEqual({
            name: entry.name,
            secret: 'gateway-secrets',
            key: entry.name,
          });
      }
    }
    for (const workload of [api, worker]) {
      const required = (containerOf(workload).env ?? [])
        .filter((entry) => entry.valueFrom?.secretKeyRef?.optional !== true)
        .map((e) => e.name);
      expect(required).toEqual(expect.arrayContaining(REQUIRED_SECRETS));
      // Everything else the apps need is in the ConfigMap or has a default: the configuration loads as it stands.
      expect(() => loadConfig(environmentOf(objects, containerOf(workload), fakeSecrets))).not.toThrow();
    }
  });

  it("opens the ports the apps listen on: the API's PORT, the worker's WORKER_HEALTH_PORT", () => {
    const apiConfig = loadConfig(environmentOf(objects, containerOf(api), fakeSecrets));
    const workerConfig = loadConfig(environmentOf(objects, containerOf(worker), fakeSecrets));
    expect(containerOf(api).ports).toEqual([{ name: 'http', containerPort: apiConfig.port }]);
    expect(containerOf(worker).ports).toEqual([{ name: 'health', containerPort: workerConfig.workerHealthPort }]);
    const apiService = find(objects, 'Service', 'gateway-api');
    expect(apiService.spec.ports).toEqual([{ name: 'http', port: 80, targetPort: 'http' }]);
    expect(apiService.spec.selector).toEqual(api.spec.selector.matchLabels);
  });

  it('probes liveness on /health and readiness on /health/ready (API) and /health/serving (worker)', () => {
    const probes = (container: Container) => ({
      liveness: container.livenessProbe?.httpGet,
      readiness: container.readinessProbe?.httpGet,
      startup: container.startupProbe?.httpGet,
    });
    expect(probes(containerOf(api))).toEqual({
      liveness: { path: '/health', port: 'http' },
      readiness: { path: '/health/ready', port: 'http' },
      startup: { path: '/health', port: 'http' },
    });
    expect(probes(containerOf(worker))).toEqual({
      liveness: { path: '/health', port: 'health' },
      readiness: { path: '/health/serving', port: 'health' },
      startup: { path: '/health', port: 'health' },
    });
  });

  it('gives each app more time to stop than its shutdown deadline (plus the preStop pause)', () => {
    for (const workload of [api, worker]) {
      const container = containerOf(workload);
      const { shutdownTimeoutMs } = loadConfig(environmentOf(objects, container, fakeSecrets));
      const graceMs = (workload.spec.template.spec.terminationGracePeriodSeconds as number) * 1000;
      expect({ workload: workload.metadata.name, enough: graceMs > shutdownTimeoutMs + preStopSeconds(container) * 1000 }).toEqual({
        workload: workload.metadata.name,
        enough: true,
      });
    }
  });

  it('protects the workers with a PDB that selects exactly their pods, and autoscales the API Deployment and the worker StatefulSet', () => {
    const pdb = find(objects, 'PodDisruptionBudget', 'gateway-worker');
    expect(pdb.spec.maxUnavailable).toBe(1);
    expect(pdb.spec.selector.matchLabels).toEqual(worker.spec.selector.matchLabels);
    const podLabels = (workload: KubeObject) => workload.spec.template.metadata.labels as Record<string, string>;
    const selects = (workload: KubeObject) =>
      Object.entries(pdb.spec.selector.matchLabels as Record<string, string>).every(([key, value]) => podLabels(workload)[key] === value);
    expect({ worker: selects(worker), api: selects(api), migrate: selects(migrate) }).toEqual({ worker: true, api: false, migrate: false });

    expect(find(objects, 'HorizontalPodAutoscaler', 'gateway-api').spec.scaleTargetRef).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      name: 'gateway-api',
    });
    expect(api.spec.replicas).toBeUndefined();
    const workerHpa = find(objects, 'HorizontalPodAutoscaler', 'gateway-worker');
    expect(workerHpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'StatefulSet', name: 'gateway-worker' });
    expect(workerHpa.spec.metrics).toEqual([
      { type: 'Pods', pods: { metric: { name: WORKER_SCALING_METRIC }, target: { type: 'AverageValue', averageValue: '2000' } } },
    ]);
  });

  it('runs every container from the one image the Dockerfile builds, with the entry points it copies', () => {
    const images = new Set(workloads.map((workload) => containerOf(workload).image));
    expect([...images]).toEqual(['registry.example.com/messaging-gateway:2.0.0']);
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile).toMatch(/^COPY --from=build \/app\/dist dist$/m);
    expect(dockerfile).toMatch(/^COPY scripts\/migrate\.mjs scripts\/migrate\.mjs$/m);
    expect(dockerfile).toMatch(/^USER node$/m);
    const commands = workloads.map((workload) => containerOf(workload).command);
    expect(commands).toEqual([
      ['node', 'dist/apps/api/src/main.js'],
      ['node', 'dist/apps/worker/src/main.js'],
      ['node', 'scripts/migrate.mjs'],
    ]);
    for (const command of commands) expect(existsSync(join(ROOT, command![1]))).toBe(true);
    // The image's `node` user (uid 1000 in node:20-bookworm-slim) is what runAsNonRoot checks.
    for (const workload of workloads) expect(workload.spec.template.spec.securityContext).toEqual({ runAsNonRoot: true, runAsUser: 1000 });
  });

  it('restarts no finished migration: the Job runs once and is not retried forever', () => {
    expect(migrate.spec.template.spec.restartPolicy).toBe('Never');
    expect(migrate.spec.backoffLimit).toBeLessThanOrEqual(5);
  });

  describe('the apps, started with the manifests environment', () => {
    const scratch = new ScratchDatabase('k8s');
    const started: AppProcess[] = [];
    let runSecrets: Record<string, string>;

    beforeAll(async () => {
      await scratch.create();
      const run = testEnv();
      runSecrets = {
        DATABASE_URL: scratch.url,
        REDIS_URL: run.REDIS_URL,
        ADMIN_API_KEY: run.ADMIN_API_KEY,
        ENCRYPTION_KEY: run.ENCRYPTION_KEY,
      };
    }, 60_000);

    afterAll(async () => {
      await Promise.all(started.map((app) => app.stop()));
      await scratch.drop();
    });

    /** The container's environment, on free ports and a private Redis prefix so it cannot meet the run's other suites. */
    const envFor = (workload: KubeObject, prefix: string) => {
      const env = environmentOf(objects, containerOf(workload), runSecrets);
      delete env.PORT;
      delete env.WORKER_HEALTH_PORT;
      return { ...env, QUEUE_PREFIX: prefix, LOG_LEVEL: 'warn' };
    };

    it("migrates an empty database with the Job's command and environment", () => {
      const container = containerOf(migrate);
      const result = spawnSync(container.command![0] === 'node' ? process.execPath : container.command![0], container.command!.slice(1), {
        cwd: ROOT,
        env: { PATH: process.env.PATH, ...envFor(migrate, subPrefix('k8m')) },
        encoding: 'utf8',
      });
      expect({ status: result.status, stderr: result.stderr }).toEqual({ status: 0, stderr: '' });
      expect(result.stdout).toMatch(/^db:migrate: applied \d{14}_/m);
    }, 120_000);

    it('the API and the worker answer every probe path of their manifests with 200', async () => {
      const prefix = subPrefix('k8s');
      const apiApp = await spawnApp('api', envFor(api, prefix));
      started.push(apiApp);
      const workerApp = await spawnApp('worker', envFor(worker, prefix));
      started.push(workerApp);
      const answers: Record<string, number> = {};
      for (const [app, workload] of [
        [apiApp, api],
        [workerApp, worker],
      ] as const) {
        const container = containerOf(workload);
        for (const probe of [container.livenessProbe, container.readinessProbe, container.startupProbe]) {
          const path = probe!.httpGet!.path;
          answers[`${workload.metadata.name} ${path}`] = (await fetch(`${app.url}${path}`)).status;
        }
      }
      expect(answers).toEqual({
        'gateway-api /health': 200,
        'gateway-api /health/ready': 200,
        'gateway-worker /health': 200,
        'gateway-worker /health/serving': 200,
      });
    }, 120_000);

    it('the worker exports the metric the example HPA scales workers on', async () => {
      const workerApp = started[1];
      const metrics = await (await fetch(`${workerApp.url}/metrics`)).text();
      const exported = new Set([...metrics.matchAll(/^# TYPE (\S+) /gm)].map((match) => match[1]));
      expect({ metric: WORKER_SCALING_METRIC, exported: exported.has(WORKER_SCALING_METRIC) }).toEqual({
        metric: WORKER_SCALING_METRIC,
        exported: true,
      });
    });
  });
});
