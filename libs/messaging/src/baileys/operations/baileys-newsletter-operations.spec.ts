import { AppError } from '@app/contracts';
import { boom } from '../testing/kit';
import { buildOperations, fakeContext } from '../testing/operations';
import { FOLLOWED_QUERY } from './newsletter-subscriptions';

const CHANNEL = '120363144038483540@newsletter';

/** A channel as the network's GraphQL answer describes it (`xwa2_newsletter`), which Baileys hands over as is. */
function channel(viewer: { mute: 'ON' | 'OFF'; role: string } | null, state = 'ACTIVE') {
  return {
    id: CHANNEL,
    state: { type: state },
    thread_metadata: {
      creation_time: '1790000000',
      description: { id: '1', text: 'Daily bread news', update_time: '1790000000' },
      handle: null,
      invite: '0029VaBreadNews',
      name: { id: '2', text: 'Bread News', update_time: '1790000000' },
      picture: { direct_path: '/v/t61.24694-24/555_666_n.jpg?ccb=11-4', id: '1790000001', type: 'IMAGE' },
      preview: { direct_path: '/v/t61.24694-24/555_777_n.jpg?ccb=11-4', id: '1790000001', type: 'PREVIEW' },
      subscribers_count: '1234',
      verification: 'VERIFIED',
    },
    viewer_metadata: viewer,
  };
}

const breadNews = {
  id: CHANNEL,
  name: 'Bread News',
  description: 'Daily bread news',
  subscriberCount: 1234,
  verificationState: 'VERIFIED',
  state: 'ACTIVE',
  createdAt: '2026-09-21T14:13:20.000Z',
  inviteCode: '0029VaBreadNews',
  pictureUrl: 'https://mmg.whatsapp.net/v/t61.24694-24/555_666_n.jpg?ccb=11-4',
};

describe('Baileys newsletter operations', () => {
  const operations = buildOperations();

  it('looks a channel up by JID or invite code, with the viewer fields when followed', async () => {
    const newsletterMetadata = jest
      .fn()
      .mockResolvedValueOnce(channel({ mute: 'ON', role: 'SUBSCRIBER' }))
      .mockResolvedValueOnce(channel({ mute: 'OFF', role: 'GUEST' }, 'GEOSUSPENDED'));
    const context = fakeContext({ socket: { newsletterMetadata } });
    await expect(operations.perform(context, 'newsletters.metadata', { by: 'jid', key: CHANNEL })).resolves.toEqual({
      ...breadNews,
      role: 'SUBSCRIBER',
      mute: 'MUTED',
    });
    await expect(operations.perform(context, 'newsletters.metadata', { by: 'invite', key: '0029VaBreadNews' })).resolves.toEqual({
      ...breadNews,
      state: 'SUSPENDED',
    });
    expect(newsletterMetadata.mock.calls).toEqual([
      ['jid', CHANNEL],
      ['invite', '0029VaBreadNews'],
    ]);
  });

  it('is not_found for an unknown channel', async () => {
    const newsletterMetadata = jest
      .fn()
      .mockResolvedValueOnce(null)
      .mockRejectedValueOnce(boom('GraphQL server error: Not found', { statusCode: 404 }));
    const context = fakeContext({ socket: { newsletterMetadata } });
    await expect(operations.perform(context, 'newsletters.metadata', { by: 'jid', key: CHANNEL })).rejects.toEqual(
      new AppError('not_found'),
    );
    await expect(operations.perform(context, 'newsletters.metadata', { by: 'invite', key: 'x' })).rejects.toEqual(
      new AppError('not_found'),
    );
  });

  it("creates a channel and answers Baileys' create answer with this account as owner", async () => {
    // Baileys parses the create answer itself (`parseNewsletterCreateResponse`).
    const newsletterCreate = jest.fn().mockResolvedValue({
      id: CHANNEL,
      owner: undefined,
      name: 'Bread News',
      creation_time: 1_790_000_000,
      description: 'Daily bread news',
      invite: '0029VaBreadNews',
      subscribers: 0,
      verification: 'UNVERIFIED',
      picture: { id: undefined, directPath: undefined },
      mute_state: 'OFF',
    });
    await expect(
      operations.perform(fakeContext({ socket: { newsletterCreate } }), 'newsletters.create', {
        name: 'Bread News',
        description: 'Daily bread news',
      }),
    ).resolves.toEqual({
      id: CHANNEL,
      name: 'Bread News',
      description: 'Daily bread news',
      subscriberCount: 0,
      verificationState: 'UNVERIFIED',
      state: 'ACTIVE',
      createdAt: '2026-09-21T14:13:20.000Z',
      inviteCode: '0029VaBreadNews',
      role: 'OWNER',
      mute: 'UNMUTED',
    });
    expect(newsletterCreate).toHaveBeenCalledWith('Bread News', 'Daily bread news');
  });

  it('sets the picture of a new channel and reads it back', async () => {
    const newsletterCreate = jest.fn().mockResolvedValue({ id: CHANNEL, name: 'Bread News', mute_state: 'OFF' });
    const newsletterUpdatePicture = jest.fn().mockResolvedValue({});
    const newsletterMetadata = jest.fn().mockResolvedValue(channel({ mute: 'OFF', role: 'OWNER' }));
    const context = fakeContext({ socket: { newsletterCreate, newsletterUpdatePicture, newsletterMetadata } });
    await expect(
      operations.perform(context, 'newsletters.create', { name: 'Bread News', picture: Buffer.from('jpeg').toString('base64') }),
    ).resolves.toEqual({ ...breadNews, role: 'OWNER', mute: 'UNMUTED' });
    expect(newsletterCreate).toHaveBeenCalledWith('Bread News', undefined);
    expect(newsletterUpdatePicture).toHaveBeenCalledWith(CHANNEL, Buffer.from('jpeg'));
    expect(newsletterMetadata).toHaveBeenCalledWith('jid', CHANNEL);
  });

  it('follows, unfollows, mutes and unmutes', async () => {
    const socket = {
      newsletterFollow: jest.fn().mockResolvedValue({}),
      newsletterUnfollow: jest.fn().mockResolvedValue({}),
      newsletterMute: jest.fn().mockResolvedValue({}),
      newsletterUnmute: jest.fn().mockResolvedValue({}),
    };
    const context = fakeContext({ socket });
    await operations.perform(context, 'newsletters.subscription', { id: CHANNEL, subscribed: true });
    await operations.perform(context, 'newsletters.subscription', { id: CHANNEL, subscribed: false });
    await operations.perform(context, 'newsletters.mute', { id: CHANNEL, muted: true });
    await operations.perform(context, 'newsletters.mute', { id: CHANNEL, muted: false });
    for (const call of Object.values(socket)) expect(call).toHaveBeenCalledWith(CHANNEL);
  });

  it('reports a refused follow change with the GraphQL error code', async () => {
    const newsletterUnfollow = jest.fn().mockRejectedValue(boom('GraphQL server error: Owner cannot leave', { statusCode: 403 }));
    await expect(
      operations.perform(fakeContext({ socket: { newsletterUnfollow } }), 'newsletters.subscription', { id: CHANNEL, subscribed: false }),
    ).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('lists the followed channels with the persisted GraphQL query', async () => {
    const answer = { data: { [FOLLOWED_QUERY.path]: [channel({ mute: 'OFF', role: 'OWNER' }), { state: { type: 'ACTIVE' } }] } };
    const query = jest.fn().mockResolvedValue({
      tag: 'iq',
      attrs: { type: 'result' },
      content: [{ tag: 'result', attrs: {}, content: Buffer.from(JSON.stringify(answer)) }],
    });
    await expect(operations.perform(fakeContext({ socket: { query } }), 'newsletters.followed', {})).resolves.toEqual({
      newsletters: [{ ...breadNews, role: 'OWNER', mute: 'UNMUTED' }],
    });
    expect(query).toHaveBeenCalledWith({
      tag: 'iq',
      attrs: { type: 'get', xmlns: 'w:mex', to: 's.whatsapp.net' },
      content: [
        {
          tag: 'query',
          attrs: { query_id: '25399611239711790' },
          content: Buffer.from(JSON.stringify({ variables: { fetch_status_metadata: true, fetch_wamo_sub: true } })),
        },
      ],
    });
  });

  it('reports a GraphQL error of the followed list by its code', async () => {
    const answer = { errors: [{ message: 'Bad Request', extensions: { error_code: 400 } }] };
    const query = jest.fn().mockResolvedValue({
      tag: 'iq',
      attrs: { type: 'result' },
      content: [{ tag: 'result', attrs: {}, content: Buffer.from(JSON.stringify(answer)) }],
    });
    await expect(operations.perform(fakeContext({ socket: { query } }), 'newsletters.followed', {})).rejects.toEqual(
      AppError.validation('the network refused the request (Bad Request)'),
    );
  });
});
