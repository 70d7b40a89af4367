import { PRIVACY_SETTINGS, type PrivacySetting } from '@app/contracts';

/**
 * Each network privacy setting as `GET /users/me/privacy` spells it. `PUT` takes either spelling: the contract family's
 * SDK sends the network's names (`last`, `groupadd`, ...) while its own responses use these (docs/decisions.md, Family
 * compatibility).
 */
export const PRIVACY_RESPONSE_NAMES = {
  groupadd: 'groupAdd',
  last: 'lastSeen',
  status: 'status',
  profile: 'profile',
  readreceipts: 'readReceipts',
  online: 'online',
  calladd: 'callAdd',
} as const satisfies Record<PrivacySetting, string>;

const BY_EITHER_NAME = new Map<string, PrivacySetting>([
  ...PRIVACY_SETTINGS.map((setting) => [setting, setting] as const),
  ...PRIVACY_SETTINGS.map((setting) => [PRIVACY_RESPONSE_NAMES[setting], setting] as const),
]);

/** Every name `PUT /users/me/privacy` accepts for `setting`. */
export const ACCEPTED_PRIVACY_SETTING_NAMES: readonly string[] = [...BY_EITHER_NAME.keys()];

/** The network setting a name (either spelling) stands for. */
export function privacySettingNamed(name: string): PrivacySetting | undefined {
  return BY_EITHER_NAME.get(name);
}
