import { Client } from 'pg';
import { startApi, type RunningApi } from './support/api-harness';
import { testEnv } from './support/environment';
import { createCustomer, createInstance } from './support/fixtures';
import { Http } from './support/http';

/** Every text value in the gateway's tables, as one string per row. */
async function everyStoredValue(client: Client): Promise<string[]> {
  const tables = await client.query<{ table_name: string }>(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_name NOT LIKE '\\_prisma%'",
  );
  const rows: string[] = [];
  for (const { table_name } of tables.rows) {
    const result = await client.query<{ row: string }>(`SELECT row_to_json(t)::text AS row FROM "${table_name}" t`);
    rows.push(...result.rows.map((r) => r.row));
  }
  return rows;
}

describe('secrets at rest', () => {
  let api: RunningApi;
  let db: Client;

  beforeAll(async () => {
    api = await startApi();
    db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
  });

  afterAll(async () => {
    await db.end();
    await api.close();
  });

  it('stores no plaintext API key, signing secret, proxy password or broker password', async () => {
    const http = new Http(api.url, { checkSpec: false });
    const customer = await createCustomer(http, 'Secretive');
    const instance = await createInstance(http, customer.apiKey);
    const instanceSecret = 'instance-signing-secret-0123456789';
    const defaultSecret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const proxyPassword = 'proxy-password-at-rest-42';
    const brokerPassword = 'broker-password-4a1f9c';
    const defaultBrokerPassword = 'default-broker-password-77e2';
    const savedSettings = await http.put(
      `/account/instances/${instance.id}/settings`,
      {
        eventSigningSecret: instanceSecret,
        proxyUrl: `http://alice:${proxyPassword}@proxy.example.com:3128`,
        eventSink: { kind: 'rabbitmq', url: `amqp://gateway:${brokerPassword}@broker.example.com/events` },
      },
      { 'X-Api-Key': customer.apiKey },
    );
    expect(savedSettings.status).toBe(204);
    const savedDefaults = await http.put(
      '/account/instances/defaults',
      {
        defaultWebhookUrl: '',
        defaultSigningSecret: defaultSecret,
        defaultEventFilters: [],
        defaultHistorySync: false,
        defaultPullMode: false,
        defaultEventSink: { kind: 'nats', url: `nats://gateway:${defaultBrokerPassword}@broker.example.com:4222` },
      },
      { 'X-Api-Key': customer.apiKey },
    );
    expect(savedDefaults.status).toBe(204);
    const rotated = (await http.post('/account/apikey/rotate', undefined, { 'X-Api-Key': customer.apiKey })).body as string;

    const stored = (await everyStoredValue(db)).join('\n');
    expect(stored).toContain(instance.id); // the dump really covers the tables
    for (const secret of [
      customer.apiKey,
      rotated,
      instance.apiKey,
      instanceSecret,
      defaultSecret,
      defaultSecret.slice('whsec_'.length),
      proxyPassword,
      brokerPassword,
      defaultBrokerPassword,
    ]) {
      expect(stored).not.toContain(secret);
    }
    // What is stored instead: the keys' SHA-256 and AES-GCM ciphertexts.
    const keyRows = await db.query<{ key_hash: string }>('SELECT key_hash FROM customer_api_keys WHERE customer_id = $1', [customer.id]);
    expect(keyRows.rows.map((r) => r.key_hash)).toEqual(expect.arrayContaining([expect.stringMatching(/^[0-9a-f]{64}$/)]));
    const instanceRow = await db.query<{ event_signing_secret_enc: string }>(
      'SELECT event_signing_secret_enc FROM instances WHERE id = $1',
      [instance.id],
    );
    expect(instanceRow.rows[0].event_signing_secret_enc).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);

    // And it still decrypts: the API shows it masked, with the last characters of the real secret.
    const detail = await http.get(`/account/instances/${instance.id}`, { 'X-Api-Key': rotated });
    expect((detail.body as { settings: { eventSigningSecret: string } }).settings.eventSigningSecret).toBe('…6789');
  });
});
