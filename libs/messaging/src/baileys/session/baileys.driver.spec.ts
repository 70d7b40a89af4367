import type { NetworkAuthRepository, NetworkMessageRepository } from '@app/database';
import type { BaileysInboundPort, BaileysOperationsPort, BaileysSenderPort } from '../baileys-context';
import type { BaileysLibrary } from '../baileys-library';
import { fakeLibrary } from '../testing/library';
import { BaileysDriver } from './baileys.driver';
import type { BaileysLogger } from './baileys-settings';

function driverWith(library: () => Promise<BaileysLibrary>, logger: Partial<BaileysLogger> = {}): BaileysDriver {
  return new BaileysDriver(
    library,
    { webSocketUrl: 'ws://127.0.0.1:9/ws/chat', firstQrWaitMs: 1_000, openWaitMs: 1_000, undecryptableAfterMs: 60_000 },
    logger as BaileysLogger,
    {} as BaileysInboundPort,
    {} as BaileysSenderPort,
    {} as BaileysOperationsPort,
    {} as NetworkAuthRepository,
    {} as NetworkMessageRepository,
  );
}

describe('BaileysDriver', () => {
  it('loads the Baileys package while the worker starts, before any instance asks for it', () => {
    const { lib } = fakeLibrary();
    const library = jest.fn(() => Promise.resolve(lib));
    driverWith(library).onApplicationBootstrap();
    expect(library).toHaveBeenCalledTimes(1);
  });

  it('reports a package that cannot be loaded, and the worker starts anyway', async () => {
    const failure = new Error('Cannot find module');
    const error = jest.fn();
    expect(driverWith(() => Promise.reject(failure), { error }).onApplicationBootstrap()).toBeUndefined();
    await new Promise((resolve) => setImmediate(resolve));
    expect(error).toHaveBeenCalledWith({ err: failure }, 'the Baileys package could not be loaded');
  });
});
