import type { ChatStoreRepository } from '@app/database';
import { ChatActivity } from './chat-activity';

describe('ChatActivity', () => {
  it('writes a burst of sends to one chat as few writes, keeping the latest time, without making anyone wait', async () => {
    const writes: [string, string, boolean, Date | null][] = [];
    let release: () => void = () => undefined;
    const firstWrite = new Promise<void>((resolve) => (release = resolve));
    const chats = {
      touch: async (instanceId: string, jid: string, isGroup: boolean, at: Date | null) => {
        writes.push([instanceId, jid, isGroup, at]);
        if (writes.length === 1) await firstWrite;
      },
    } as unknown as ChatStoreRepository;
    const activity = new ChatActivity(chats);
    const at = (second: number) => new Date(Date.UTC(2026, 10, 22, 9, 0, second));

    activity.note('ins_1', 'a@s.whatsapp.net', false, at(1));
    for (let second = 2; second <= 50; second++) activity.note('ins_1', 'a@s.whatsapp.net', false, at(second));
    activity.note('ins_1', 'a@s.whatsapp.net', false, at(10));
    activity.note('ins_2', 'g@g.us', true, at(5));
    release();
    await activity.idle();

    expect(writes).toEqual([
      ['ins_1', 'a@s.whatsapp.net', false, at(1)],
      ['ins_1', 'a@s.whatsapp.net', false, at(50)],
      ['ins_2', 'g@g.us', true, at(5)],
    ]);
  });

  it('keeps going when a write fails', async () => {
    const writes: string[] = [];
    const chats = {
      touch: (instanceId: string, jid: string) => {
        writes.push(jid);
        return jid.startsWith('bad') ? Promise.reject(new Error('db down')) : Promise.resolve();
      },
    } as unknown as ChatStoreRepository;
    const activity = new ChatActivity(chats);
    activity.note('ins_1', 'bad@s.whatsapp.net', false, new Date());
    activity.note('ins_1', 'good@s.whatsapp.net', false, new Date());
    await activity.idle();
    expect(writes).toEqual(['bad@s.whatsapp.net', 'good@s.whatsapp.net']);
  });
});
