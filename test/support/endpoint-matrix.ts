import { issueApiKey } from '@app/security';
import type { Response } from 'supertest';
import { sessionHeaders } from './dashboard';
import type { CreatedInstance } from './fixtures';
import type { Headers } from './http';
import { headersOf, type InstanceWorld } from './instance-world';
import { expectErrorBody } from './openapi';

type Body = Record<string, unknown>;

/** One instance endpoint, described well enough to run the whole error table against it. */
export interface MatrixEndpoint {
  method: 'get' | 'put' | 'post' | 'delete';
  /** As the OpenAPI document names the route. */
  route: string;
  /** A concrete path with well-formed parameters. */
  path: string;
  /** A valid body, for endpoints that take one. */
  body?: Body;
  /** Bodies that break a rule, each with the exact detail it must produce. */
  invalid?: { label: string; body: Body; detail: string }[];
  /** Paths with a malformed parameter, each with the exact detail it must produce. */
  badPaths?: { path: string; detail: string }[];
  /** 403 on most endpoints; 409 where the contract says so. */
  whenUnpaired?: 403 | 409;
}

function call(world: InstanceWorld, endpoint: MatrixEndpoint, headers: Headers, body = endpoint.body, path = endpoint.path) {
  const { http } = world;
  switch (endpoint.method) {
    case 'get':
      return http.get(path, headers);
    case 'delete':
      return http.delete(path, headers);
    case 'put':
      return http.put(path, body, headers);
    case 'post':
      return http.post(path, body, headers);
  }
}

/**
 * The error table every instance endpoint answers the same way: 400 (missing X-Instance-Id, each rule a body or path
 * breaks, unknown fields), 401 for nine kinds of bad credentials (including another customer's key or dashboard session), 403/409 for
 * never-paired and logged-out instances, 503 while the link is down, and which error wins when several apply. After
 * every refused request the simulated network must not have carried out anything for the instance.
 */
export function describeErrorMatrix(title: string, endpoints: MatrixEndpoint[], worldOf: () => InstanceWorld): void {
  const label = (endpoint: MatrixEndpoint) => `${endpoint.method.toUpperCase()} ${endpoint.route}`;
  const named = endpoints.map((endpoint) => ({ ...endpoint, name: label(endpoint) }));

  async function refused(response: Response, status: number, detail: string, instance: CreatedInstance): Promise<void> {
    expectErrorBody(response, status, detail);
    expect(await worldOf().operations(instance)).toEqual([]);
  }

  describe(`${title}: error matrix`, () => {
    describe('400', () => {
      it.each(named)('$name without X-Instance-Id', async (endpoint) => {
        const world = worldOf();
        await refused(
          await call(world, endpoint, { 'X-Api-Key': world.refused.apiKey }),
          400,
          'missing X-Instance-Id header',
          world.refused,
        );
      });

      const invalid = named.flatMap((endpoint) => (endpoint.invalid ?? []).map((variant) => ({ ...endpoint, variant })));
      if (invalid.length > 0)
        it.each(invalid)('$name with $variant.label', async (endpoint) => {
          const world = worldOf();
          await refused(
            await call(world, endpoint, headersOf(world.refused), endpoint.variant.body),
            400,
            endpoint.variant.detail,
            world.refused,
          );
        });

      const withBody = named.filter((endpoint) => endpoint.body !== undefined);
      if (withBody.length > 0) {
        it.each(withBody)('$name with an unknown field', async (endpoint) => {
          const world = worldOf();
          await refused(
            await call(world, endpoint, headersOf(world.refused), { ...endpoint.body, bogus: 1 }),
            400,
            'validation error: property bogus should not exist',
            world.refused,
          );
        });

        it.each(withBody)('$name with a JSON array as the body', async (endpoint) => {
          const world = worldOf();
          await refused(
            await world.http.raw(endpoint.method as 'post' | 'put', endpoint.path, '[]', {
              ...headersOf(world.refused),
              'Content-Type': 'application/json',
            }),
            400,
            'invalid request body',
            world.refused,
          );
        });
      }

      const badPaths = named.flatMap((endpoint) => (endpoint.badPaths ?? []).map((bad) => ({ ...endpoint, bad })));
      if (badPaths.length > 0)
        it.each(badPaths)('$name at $bad.path', async (endpoint) => {
          const world = worldOf();
          await refused(
            await call(world, endpoint, headersOf(world.refused), endpoint.body, endpoint.bad.path),
            400,
            endpoint.bad.detail,
            world.refused,
          );
        });
    });

    describe('401 unauthorized', () => {
      const credentials: [string, (world: InstanceWorld) => Headers][] = [
        ['no X-Api-Key', (world) => ({ 'X-Instance-Id': world.refused.id })],
        ['neither header', () => ({})],
        ['an unknown customer key', (world) => ({ 'X-Api-Key': issueApiKey('customer').key, 'X-Instance-Id': world.refused.id })],
        ['an unknown instance key', (world) => ({ 'X-Api-Key': issueApiKey('instance').key, 'X-Instance-Id': world.refused.id })],
        ['a malformed key', (world) => ({ 'X-Api-Key': 'not-a-key', 'X-Instance-Id': world.refused.id })],
        ["another instance's key (same customer)", (world) => ({ 'X-Api-Key': world.connected.apiKey, 'X-Instance-Id': world.refused.id })],
        ["another customer's key", (world) => ({ 'X-Api-Key': world.stranger.apiKey, 'X-Instance-Id': world.refused.id })],
        [
          "another customer's dashboard session",
          (world) => ({ ...sessionHeaders(world.strangerSession), 'X-Instance-Id': world.refused.id }),
        ],
        ['an unknown session cookie', (world) => ({ Cookie: `mgw_session=${'Q'.repeat(43)}`, 'X-Instance-Id': world.refused.id })],
      ];
      const cases = named.flatMap((endpoint) => credentials.map(([credential, headers]) => ({ ...endpoint, credential, headers })));

      it.each(cases)('$name with $credential', async (endpoint) => {
        const world = worldOf();
        await refused(await call(world, endpoint, endpoint.headers(world)), 401, 'unauthorized', world.refused);
      });
    });

    describe('403/409 device not paired', () => {
      const cases = named.flatMap((endpoint) => [
        { ...endpoint, state: 'never paired', instance: (world: InstanceWorld) => world.unpaired },
        { ...endpoint, state: 'logged out', instance: (world: InstanceWorld) => world.loggedOut },
      ]);

      it.each(cases)('$name on a $state instance', async (endpoint) => {
        const world = worldOf();
        const instance = endpoint.instance(world);
        await refused(await call(world, endpoint, headersOf(instance)), endpoint.whenUnpaired ?? 403, 'device not paired', instance);
      });
    });

    describe('503 instance not available', () => {
      it.each(named)('$name while the link is offline', async (endpoint) => {
        const world = worldOf();
        await refused(await call(world, endpoint, headersOf(world.offline)), 503, 'instance not available', world.offline);
      });
    });

    describe('precedence: authentication, then instance state, then the request', () => {
      const broken = named.filter((endpoint) => endpoint.invalid?.length || endpoint.badPaths?.length);
      const brokenCall = (world: InstanceWorld, endpoint: MatrixEndpoint, headers: Headers) =>
        call(
          world,
          endpoint,
          headers,
          endpoint.invalid?.[0]?.body ?? endpoint.body,
          endpoint.invalid?.length ? endpoint.path : endpoint.badPaths?.[0]?.path,
        );
      if (broken.length > 0) {
        it.each(broken)('$name invalid and without a key: 401', async (endpoint) => {
          const world = worldOf();
          await refused(await brokenCall(world, endpoint, { 'X-Instance-Id': world.refused.id }), 401, 'unauthorized', world.refused);
        });

        it.each(broken)('$name invalid on a never-paired instance: device not paired', async (endpoint) => {
          const world = worldOf();
          await refused(
            await brokenCall(world, endpoint, headersOf(world.unpaired)),
            endpoint.whenUnpaired ?? 403,
            'device not paired',
            world.unpaired,
          );
        });

        it.each(broken)('$name invalid while offline: 503', async (endpoint) => {
          const world = worldOf();
          await refused(await brokenCall(world, endpoint, headersOf(world.offline)), 503, 'instance not available', world.offline);
        });
      }

      const withBody = named.filter((endpoint) => endpoint.body !== undefined);
      if (withBody.length > 0)
        it.each(withBody)('$name with malformed JSON and no key: 401, the body is never parsed', async (endpoint) => {
          const world = worldOf();
          await refused(
            await world.http.raw(endpoint.method as 'post' | 'put', endpoint.path, '{"x":', {
              'Content-Type': 'application/json',
              'X-Instance-Id': world.refused.id,
            }),
            401,
            'unauthorized',
            world.refused,
          );
        });
    });
  });
}
