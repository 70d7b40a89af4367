import { AppError } from '@app/contracts';
import { buildOperations, fakeContext, iqError } from './fake-context.testing';

const CALLER = '200000000000002@lid';

describe('Baileys call operations', () => {
  it('rejects a call by its id and caller, as the call event named them', async () => {
    const rejectCall = jest.fn().mockResolvedValue(undefined);
    await expect(
      buildOperations().perform(fakeContext({ socket: { rejectCall } }), 'calls.reject', { callId: '8A2F9C0E1B7D4E55', callerId: CALLER }),
    ).resolves.toEqual({});
    expect(rejectCall).toHaveBeenCalledWith('8A2F9C0E1B7D4E55', CALLER);
  });

  it('is not_found for a call the network no longer knows', async () => {
    const rejectCall = jest.fn().mockRejectedValue(iqError(404, 'item-not-found'));
    await expect(
      buildOperations().perform(fakeContext({ socket: { rejectCall } }), 'calls.reject', { callId: 'GONE', callerId: CALLER }),
    ).rejects.toEqual(new AppError('not_found'));
  });
});
