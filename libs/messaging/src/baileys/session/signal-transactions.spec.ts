import { SIGNAL_TRANSACTION_KEY, serialiseSignalTransactions } from './signal-transactions';

describe('serialiseSignalTransactions', () => {
  const keysAsked = () => {
    const asked: string[] = [];
    const keys = {
      transaction: <T>(work: () => Promise<T>, key: string): Promise<T> => {
        asked.push(key);
        return work();
      },
    };
    serialiseSignalTransactions(keys);
    return { keys, asked };
  };

  it('runs every transaction named by a JID (ours, a contact by phone or LID, a group) under one key', async () => {
    const { keys, asked } = keysAsked();
    const results = await Promise.all(
      ['447700900200:5@s.whatsapp.net', '123456789012345@lid', '447700900123@s.whatsapp.net', '120363000000000000@g.us'].map((jid) =>
        keys.transaction(() => Promise.resolve(jid), jid),
      ),
    );
    expect(results).toEqual([
      '447700900200:5@s.whatsapp.net',
      '123456789012345@lid',
      '447700900123@s.whatsapp.net',
      '120363000000000000@g.us',
    ]);
    expect(asked).toEqual([SIGNAL_TRANSACTION_KEY, SIGNAL_TRANSACTION_KEY, SIGNAL_TRANSACTION_KEY, SIGNAL_TRANSACTION_KEY]);
  });

  it('keeps the keys that name no JID, so a LID-mapping write never waits behind a send that waits for it', async () => {
    const { keys, asked } = keysAsked();
    for (const key of ['lid-mapping', 'upload-pre-keys', 'delete-2-sessions']) await keys.transaction(() => Promise.resolve(), key);
    expect(asked).toEqual(['lid-mapping', 'upload-pre-keys', 'delete-2-sessions']);
  });
});
