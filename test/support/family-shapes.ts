/**
 * The response shapes this gateway promises to clients of its contract family (the family's official SDKs, WSAPI's
 * Node SDK 3.0.0 among them): field names and JSON types as the family documents them. `required` fields must be
 * present; `optional` ones, when present, must have the type. Extra fields are allowed (clients ignore them).
 */
export type FieldType = 'string' | 'boolean' | 'integer' | 'number' | 'string[]' | 'object' | Shape | { listOf: Shape };

export interface Shape {
  required: Record<string, FieldType>;
  optional?: Record<string, FieldType>;
}

const identity = (required: Record<string, FieldType> = { id: 'string' }): Shape => ({
  required,
  optional: { id: 'string', lid: 'string', phone: 'string', device: 'integer' },
});

const withIdentity = (required: Record<string, FieldType>, optional: Record<string, FieldType>): Shape => ({
  required: { id: 'string', ...required },
  optional: { lid: 'string', phone: 'string', device: 'integer', ...optional },
});

export const IDENTITY = identity();

export const PARTICIPANT = withIdentity({ isAdmin: 'boolean', isSuperAdmin: 'boolean' }, { displayName: 'string' });

export const FAMILY_SHAPES = {
  sessionStatus: { required: { isConnected: 'boolean', isLoggedIn: 'boolean', deviceId: 'string' } },
  instanceSettings: {
    required: {
      name: 'string',
      useCustomDefaults: 'boolean',
      pullMode: 'boolean',
      webhookUrl: 'string',
      eventSigningSecret: 'string',
      historySync: 'boolean',
      eventFilters: 'string[]',
    },
  },
  statusPrivacy: { required: { type: 'string', list: 'string[]', isDefault: 'boolean' } },
  createdId: { required: { id: 'string' } },
  chat: {
    required: { id: 'string', isGroup: 'boolean', isArchived: 'boolean', isPinned: 'boolean', isMuted: 'boolean' },
    optional: {
      lid: 'string',
      muteEndTime: 'string',
      pushName: 'string',
      businessName: 'string',
      fullName: 'string',
      lastActivity: 'string',
    },
  },
  contact: withIdentity(
    {},
    { fullName: 'string', firstName: 'string', pushName: 'string', businessName: 'string', inPhoneAddressBook: 'boolean' },
  ),
  identity: IDENTITY,
  group: {
    required: { groupId: 'string', name: 'string', participants: { listOf: PARTICIPANT } },
    optional: {
      owner: IDENTITY,
      createdAt: 'string',
      description: 'string',
      isAnnounce: 'boolean',
      isLocked: 'boolean',
      isEphemeral: 'boolean',
      ephemeralExpiration: 'integer',
      communityId: 'string',
      isAnnouncementGroup: 'boolean',
      isJoinApprovalRequired: 'boolean',
      memberAddMode: 'string',
    },
  },
  participant: PARTICIPANT,
  inviteLink: { required: { link: 'string' } },
  community: {
    required: { communityId: 'string', name: 'string' },
    optional: {
      owner: IDENTITY,
      created: 'string',
      description: 'string',
      isLocked: 'boolean',
      communityApprovalMode: 'string',
      participants: { listOf: PARTICIPANT },
    },
  },
  communitySubGroup: { required: { groupId: 'string', name: 'string' }, optional: { nameSetAt: 'string', isAnnouncementGroup: 'boolean' } },
  newsletter: {
    required: { id: 'string', name: 'string' },
    optional: {
      description: 'string',
      subscriberCount: 'integer',
      verificationState: 'string',
      pictureUrl: 'string',
      inviteCode: 'string',
      role: 'string',
      mute: 'string',
      state: 'string',
      createdAt: 'string',
    },
  },
  me: withIdentity(
    {},
    { deviceId: 'integer', pushName: 'string', businessName: 'string', status: 'string', pictureId: 'string', isVerified: 'boolean' },
  ),
  privacy: {
    required: {},
    optional: {
      groupAdd: 'string',
      lastSeen: 'string',
      status: 'string',
      profile: 'string',
      readReceipts: 'string',
      online: 'string',
      callAdd: 'string',
    },
  },
  presence: { required: { isInWhatsApp: 'boolean' } },
  userCheck: { required: { query: 'string', isInWhatsApp: 'boolean' }, optional: { jid: 'string' } },
  user: withIdentity({}, { isInWhatsApp: 'boolean', status: 'string', pictureId: 'string', pictureUrl: 'string', isVerified: 'boolean' }),
} satisfies Record<string, Shape>;

function typeProblem(value: unknown, type: FieldType, at: string): string[] {
  if (typeof type === 'object') {
    if ('listOf' in type) {
      if (!Array.isArray(value)) return [`${at} is not an array`];
      return value.flatMap((item, index) => shapeProblems(item, type.listOf, `${at}[${index}]`));
    }
    return shapeProblems(value, type, at);
  }
  const ok =
    type === 'string[]'
      ? Array.isArray(value) && value.every((item) => typeof item === 'string')
      : type === 'integer'
        ? Number.isInteger(value)
        : type === 'object'
          ? typeof value === 'object' && value !== null && !Array.isArray(value)
          : typeof value === type;
  return ok ? [] : [`${at} should be ${type}, is ${JSON.stringify(value)}`];
}

/** Every way `value` breaks `shape` (empty when it holds), each naming the field. */
export function shapeProblems(value: unknown, shape: Shape, at = '$'): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [`${at} should be an object, is ${JSON.stringify(value)}`];
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const [field, type] of Object.entries(shape.required)) {
    if (!(field in record)) problems.push(`${at}.${field} is missing`);
    else problems.push(...typeProblem(record[field], type, `${at}.${field}`));
  }
  for (const [field, type] of Object.entries(shape.optional ?? {})) {
    if (field in record && !(field in shape.required)) problems.push(...typeProblem(record[field], type, `${at}.${field}`));
  }
  return problems;
}
