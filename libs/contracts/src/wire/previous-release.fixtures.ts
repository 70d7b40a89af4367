/**
 * Values exactly as the previous release (04332bd) writes them, no `v` anywhere: its CommandClient's request
 * (`{ ...command, requestId, replyTo }`), its CommandServer's replies, its doorbell and webhook job data, and its
 * worker's Redis values (`StatusStore.set`, `SendingPauses.paused`, `ResumeProgressPublisher`). Stored send payloads
 * of every kind are checked against the API's own builders (unchanged since 04332bd) in message-payloads.spec.ts.
 */
export const PREVIOUS_RELEASE = {
  commandRequest: {
    instanceId: 'inst_1',
    name: 'network.perform',
    args: { name: 'groups.info', args: { groupId: '120363025246125486@g.us' } },
    deadline: 1_795_000_000_000,
    requestId: '0f1c2d3e-4b5a-4697-8a9b-0c1d2e3f4a5b',
    replyTo: 'gw:reply:6a1c2d3e-4b5a-4697-8a9b-0c1d2e3f4a5b',
  },
  pairCodeRequest: {
    instanceId: 'inst_1',
    name: 'session.pairCode',
    args: { phone: '14155550123' },
    deadline: 1_795_000_000_000,
    requestId: 'r-2',
    replyTo: 'gw:reply:x',
  },
  replyOk: {
    requestId: 'r-1',
    ok: true,
    result: {
      jid: '120363025246125486@g.us',
      name: 'Team',
      locked: false,
      announce: false,
      joinApproval: false,
      memberAddMode: 'all_member_add',
      ephemeralSeconds: 0,
      isCommunity: false,
      isAnnouncement: false,
      participants: [{ jid: '14155550123@s.whatsapp.net', role: 'superadmin' }],
    },
  },
  replyError: { requestId: 'r-1', ok: false, code: 'not_found' },
  replyNotOwner: { requestId: 'r-1', ok: false, notOwner: true },
  sendJob: { instanceId: 'inst_1', messageId: '3EB0AAAAAAAAAAAAAAAAAA' },
  reroutedSendJob: { instanceId: 'inst_1', messageId: '3EB0AAAAAAAAAAAAAAAAAA', rerouted: true },
  webhookJob: { eventId: 'evt_1795000000000_0011223344556677', attempts: 0 },
  liveStatus: { status: 'connected', deviceId: '14155550123:7@s.whatsapp.net', updatedAt: 1_795_000_000_000, token: 12 },
  sendingPause: { code: 463, refusals: 3, probeAt: 1_795_000_060_000 },
  workerProgress: { pending: 4, resumed: 10, total: 14 },
  /** `group_metadata.participants` as `GroupStoreRepository.save` writes it. */
  groupMembers: [
    { jid: '14155550123@s.whatsapp.net', role: 'superadmin' },
    { jid: '447700900555@s.whatsapp.net', lid: '12345678901234@lid', role: 'member' },
  ],
} as const;
