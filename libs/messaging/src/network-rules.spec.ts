import { membersBesidesSelf, refuseBlockingSelf, refuseDeletingOthersStatus, refuseRemovingSelf } from './network-rules';

const SELF = '447700900001@s.whatsapp.net';
const SELF_LID = '900000000001@lid';
const OTHER = '447700900002@s.whatsapp.net';

/** 'allowed', or the status and detail of the refusal. */
function outcome(check: () => void): unknown {
  try {
    check();
    return 'allowed';
  } catch (error) {
    const { status, detail } = error as { status: number; detail: string };
    return { status, detail };
  }
}

const USE_LEAVE = { status: 400, detail: 'validation error: participants: use leave to leave the group yourself' };

describe('refuseRemovingSelf', () => {
  it('refuses removing this account, named by its JID or by its LID, among others', () => {
    expect(outcome(() => refuseRemovingSelf('remove', [OTHER, SELF], [SELF, SELF_LID]))).toEqual(USE_LEAVE);
    expect(outcome(() => refuseRemovingSelf('remove', [SELF_LID], [SELF, SELF_LID]))).toEqual(USE_LEAVE);
  });

  it('lets other people be removed, also when the account has no LID', () => {
    expect(outcome(() => refuseRemovingSelf('remove', [OTHER], [SELF, undefined]))).toBe('allowed');
  });

  it.each(['add', 'promote', 'demote'] as const)('leaves %s to the other rules, even when it names this account', (action) => {
    expect(outcome(() => refuseRemovingSelf(action, [SELF], [SELF]))).toBe('allowed');
  });
});

describe('membersBesidesSelf', () => {
  const NOBODY = { status: 400, detail: 'validation error: participants must name at least one person besides this account' };

  it('leaves this account out, named by its JID or by its LID', () => {
    expect(membersBesidesSelf([SELF, OTHER, SELF_LID], [SELF, SELF_LID])).toEqual([OTHER]);
    expect(membersBesidesSelf([OTHER], [SELF, undefined])).toEqual([OTHER]);
  });

  it('refuses a group of this account alone, or of nobody', () => {
    expect(outcome(() => membersBesidesSelf([SELF, SELF_LID], [SELF, SELF_LID]))).toEqual(NOBODY);
    expect(outcome(() => membersBesidesSelf([], [SELF]))).toEqual(NOBODY);
  });
});

describe('refuseBlockingSelf', () => {
  const SELF_BLOCK = { status: 400, detail: 'validation error: id must not be this account itself' };

  it('refuses this account, named by its JID or by its LID', () => {
    expect(outcome(() => refuseBlockingSelf(SELF, [SELF, SELF_LID]))).toEqual(SELF_BLOCK);
    expect(outcome(() => refuseBlockingSelf(SELF_LID, [SELF, SELF_LID]))).toEqual(SELF_BLOCK);
  });

  it('lets anyone else be blocked, also when the account has no LID', () => {
    expect(outcome(() => refuseBlockingSelf(OTHER, [SELF, undefined]))).toBe('allowed');
  });
});

describe('refuseDeletingOthersStatus', () => {
  it('lets the author delete a post and refuses anyone else', () => {
    expect(outcome(() => refuseDeletingOthersStatus(true))).toBe('allowed');
    expect(outcome(() => refuseDeletingOthersStatus(false))).toEqual({
      status: 403,
      detail: 'forbidden: only your own status posts can be deleted',
    });
  });
});
