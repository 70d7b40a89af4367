import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { NetworkMessageRepository, PrismaService, type NetworkMessageRecord } from '@app/database';
import { testConfig, testEnv } from './support/environment';

describe('kept real-network messages as history', () => {
  let db: Client;
  let prisma: PrismaService;
  let messages: NetworkMessageRepository;
  const suffix = randomBytes(6).toString('hex');
  const instanceId = `ins_hist_${suffix}`;
  const customerId = `cus_hist_${suffix}`;

  const record = (chatJid: string, id: string, minute: number): NetworkMessageRecord => ({
    id,
    chatJid,
    fromMe: false,
    senderJid: null,
    sentAt: new Date(Date.UTC(2026, 10, 22, 8, minute)),
    data: JSON.stringify({ key: { remoteJid: chatJid, id } }),
  });

  beforeAll(async () => {
    db = new Client({ connectionString: testEnv().DATABASE_URL });
    await db.connect();
    await db.query('INSERT INTO customers (id, name) VALUES ($1, $2)', [customerId, 'History Co']);
    await db.query('INSERT INTO instances (id, customer_id, name, shard, updated_at) VALUES ($1, $2, $3, 0, now())', [
      instanceId,
      customerId,
      'history',
    ]);
    prisma = new PrismaService(testConfig());
    messages = new NetworkMessageRepository(prisma);
  });

  afterAll(async () => {
    await db.query('DELETE FROM instances WHERE id = $1', [instanceId]);
    await db.query('DELETE FROM customers WHERE id = $1', [customerId]);
    await db.end();
    await prisma.onModuleDestroy();
  });

  it('answers the newest messages of every chat, at most the given number per chat, newest first', async () => {
    const ann = '447700900123@s.whatsapp.net';
    const team = '120363041234567890@g.us';
    await messages.save(instanceId, [record(ann, 'A1', 1), record(ann, 'A2', 2), record(ann, 'A3', 3), record(team, 'T1', 4)]);
    const history = await messages.recentPerChat(instanceId, 2);
    const byChat = (chatJid: string) => history.filter((message) => message.chatJid === chatJid).map((message) => message.id);
    expect(history).toHaveLength(3);
    expect(byChat(ann)).toEqual(['A3', 'A2']);
    expect(byChat(team)).toEqual(['T1']);
    expect(await messages.recentPerChat(`${instanceId}_none`, 2)).toEqual([]);
  });

  it("finds, lists and forgets a person's chat under both of their JIDs", async () => {
    // rc14 keeps a received one-to-one message under the contact's LID; our sends sit under the phone number.
    const phone = '447700900777@s.whatsapp.net';
    const lid = '100000000000777@lid';
    await messages.save(instanceId, [
      record(phone, 'P1', 10),
      record(lid, 'L2', 11),
      record(phone, 'P3', 12),
      record('447700900888@s.whatsapp.net', 'X4', 13),
    ]);
    const both = [phone, lid];
    expect((await messages.find(instanceId, 'L2', both))?.chatJid).toBe(lid);
    expect(await messages.find(instanceId, 'L2', phone)).toBeNull();
    expect((await messages.latest(instanceId, both, 10)).map((message) => message.id)).toEqual(['P3', 'L2', 'P1']);
    await messages.forgetChat(instanceId, both);
    expect(await messages.latest(instanceId, both, 10)).toEqual([]);
    expect((await messages.latest(instanceId, '447700900888@s.whatsapp.net', 10)).map((message) => message.id)).toEqual(['X4']);
  });
});
