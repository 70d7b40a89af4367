import { Test } from '@nestjs/testing';
import { AppError } from '@app/contracts';
import { ChatStoreRepository, ContactStoreRepository } from '@app/database';
import { SandboxStatusMedia } from '../../sandbox/sandbox-status-media';
import { BAILEYS_OPERATION_PROVIDERS, BaileysOperations } from './baileys-operations';
import { buildOperations, fakeContext, iqError } from '../testing/operations';

describe('BaileysOperations', () => {
  it('is built by dependency injection from its providers and the stores', async () => {
    const module = await Test.createTestingModule({
      providers: [
        ...BAILEYS_OPERATION_PROVIDERS,
        { provide: ChatStoreRepository, useValue: {} },
        { provide: ContactStoreRepository, useValue: {} },
        { provide: SandboxStatusMedia, useValue: {} },
      ],
    }).compile();
    const presenceSubscribe = jest.fn().mockResolvedValue(undefined);
    await module
      .get(BaileysOperations)
      .perform(fakeContext({ socket: { presenceSubscribe } }), 'chats.subscribePresence', { chatId: 'x@lid' });
    expect(presenceSubscribe).toHaveBeenCalledWith('x@lid');
  });

  it('answers with the result of the operation handler', async () => {
    const presenceSubscribe = jest.fn().mockResolvedValue(undefined);
    await expect(
      buildOperations().perform(fakeContext({ socket: { presenceSubscribe } }), 'chats.subscribePresence', {
        chatId: '447700900200@s.whatsapp.net',
      }),
    ).resolves.toEqual({});
  });

  it("reports the network's refusals of any operation as AppErrors", async () => {
    const presenceSubscribe = jest.fn().mockRejectedValue(iqError(404, 'item-not-found'));
    const sendPresenceUpdate = jest.fn().mockRejectedValue(iqError(401, 'not-authorized'));
    const context = fakeContext({ socket: { presenceSubscribe, sendPresenceUpdate } });
    await expect(buildOperations().perform(context, 'chats.subscribePresence', { chatId: 'x@s.whatsapp.net' })).rejects.toEqual(
      new AppError('not_found'),
    );
    await expect(buildOperations().perform(context, 'chats.presence', { chatId: 'x@s.whatsapp.net', state: 'typing' })).rejects.toEqual(
      AppError.forbidden('the network does not allow this account to do that (not-authorized)'),
    );
  });
});
