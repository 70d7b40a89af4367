import { AppError } from '@app/contracts';
import { CallOrigins } from '../call-origins';
import { buildOperations, fakeContext, iqError } from '../testing/operations';

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

  it("rejects a call at the caller the offer named (rc14's `from`, device and LID), not the phone number the event showed", async () => {
    const rejectCall = jest.fn().mockResolvedValue(undefined);
    const calls = new CallOrigins();
    // rc14's handleCall: `from` is the offer's sender with its device, usually a LID; `callerPn` is the number.
    calls.remember('A3F4C1D2E5B6A7980C1D2E3F4A5B6C7D', '123456789012345:21@lid');
    const context = { ...fakeContext({ socket: { rejectCall } }), calls };
    await buildOperations().perform(context, 'calls.reject', {
      callId: 'A3F4C1D2E5B6A7980C1D2E3F4A5B6C7D',
      callerId: '447700900200@s.whatsapp.net',
    });
    expect(rejectCall).toHaveBeenCalledWith('A3F4C1D2E5B6A7980C1D2E3F4A5B6C7D', '123456789012345:21@lid');
  });
});
