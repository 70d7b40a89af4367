import { GroupActors } from './group-actors';

const notification = (attrs: Record<string, string>) => ({
  tag: 'notification',
  attrs: { from: '120363041234567890@g.us', type: 'w:gp2', ...attrs },
});

describe('GroupActors', () => {
  it("keeps both identities of a change's author, either way round and without the device", () => {
    const actors = new GroupActors();
    actors.notified(notification({ participant: '123456789012345:3@lid', participant_pn: '447700900123@s.whatsapp.net' }));
    actors.notified(notification({ participant: '447700900999@s.whatsapp.net', participant_lid: '123456789012999@lid' }));
    expect(actors.otherOf('123456789012345@lid')).toBe('447700900123@s.whatsapp.net');
    expect(actors.otherOf('447700900123@s.whatsapp.net')).toBe('123456789012345@lid');
    expect(actors.otherOf('447700900999:2@s.whatsapp.net')).toBe('123456789012999@lid');
  });

  it('learns nothing from a notification naming one identity only, and forgets the oldest beyond its limit', () => {
    const actors = new GroupActors(2);
    actors.notified(notification({ participant: '123456789012345@lid' }));
    expect(actors.otherOf('123456789012345@lid')).toBeUndefined();
    actors.notified(notification({ participant: '123456789012345@lid', participant_pn: '447700900123@s.whatsapp.net' }));
    actors.notified(notification({ participant: '123456789012999@lid', participant_pn: '447700900999@s.whatsapp.net' }));
    expect(actors.otherOf('123456789012345@lid')).toBeUndefined();
    expect(actors.otherOf('123456789012999@lid')).toBe('447700900999@s.whatsapp.net');
  });
});
