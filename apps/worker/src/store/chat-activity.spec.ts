import type { ChatStoreRepository } from '@app/database';
import { CHAT_ACTIVITY_COALESCE_MS, ChatActivity } from './chat-activity';

describe('ChatActivity', () => {
  it('writes a chat at once, then the rest of its burst as one write at the end of the window, keeping the latest time', async () => {
    jest.useFakeTimers();
    try {
      const writes: [string, string, boolean, Date | null][] = [];
      const chats = {
        touch: (instanceId: string, jid: string, isGroup: boolean, at: Date | null) => {
          writes.push([instanceId, jid, isGroup, at]);
          return Promise.resolve();
        },
      } as unknown as ChatStoreRepository;
      const activity = new ChatActivity(chats);
      const at = (second: number) => new Date(Date.UTC(2026, 10, 22, 9, 0, second));

      activity.note('ins_1', 'a@s.whatsapp.net', false, at(1));
      await jest.advanceTimersByTimeAsync(0);
      expect(writes).toEqual([['ins_1', 'a@s.whatsapp.net', false, at(1)]]);

      for (let second = 2; second <= 50; second++) activity.note('ins_1', 'a@s.whatsapp.net', false, at(second));
      activity.note('ins_1', 'a@s.whatsapp.net', false, at(10));
      await jest.advanceTimersByTimeAsync(CHAT_ACTIVITY_COALESCE_MS - 1);
      expect(writes).toHaveLength(1);
      await jest.advanceTimersByTimeAsync(1);
      expect(writes).toEqual([
        ['ins_1', 'a@s.whatsapp.net', false, at(1)],
        ['ins_1', 'a@s.whatsapp.net', false, at(50)],
      ]);

      // A chat not written within the window goes at once, and what waits for the window goes with it.
      activity.note('ins_1', 'a@s.whatsapp.net', false, at(51));
      activity.note('ins_2', 'g@g.us', true, at(5));
      await jest.advanceTimersByTimeAsync(0);
      expect(writes.slice(2)).toEqual([
        ['ins_1', 'a@s.whatsapp.net', false, at(51)],
        ['ins_2', 'g@g.us', true, at(5)],
      ]);
    } finally {
      jest.useRealTimers();
    }
  });

  it('writes at once, without waiting out the window, when asked to be idle (shutdown)', async () => {
    const writes: string[] = [];
    const chats = {
      touch: (instanceId: string, jid: string) => {
        writes.push(jid);
        return Promise.resolve();
      },
    } as unknown as ChatStoreRepository;
    const activity = new ChatActivity(chats);
    activity.note('ins_1', 'a@s.whatsapp.net', false, new Date());
    const started = Date.now();
    await activity.idle();
    expect({ writes, waitedLessThanTheWindow: Date.now() - started < CHAT_ACTIVITY_COALESCE_MS }).toEqual({
      writes: ['a@s.whatsapp.net'],
      waitedLessThanTheWindow: true,
    });
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
