import { ValidateBy, buildMessage, type ValidationOptions } from 'class-validator';
import { isMaskedSecret } from '@app/security';

const MAX_URL_LENGTH = 2048;

/** With `@IsDefined(REQUIRED)` a missing field reads `validation error: <field> is required`. */
export const REQUIRED = { message: 'is required' };

/** An absolute http(s) URL without credentials; the empty string clears the setting. */
export function IsWebhookUrl(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isWebhookUrl',
      validator: {
        validate: (value: unknown) => {
          if (value === '') return true;
          if (typeof value !== 'string' || value.length > MAX_URL_LENGTH || !/^https?:\/\//i.test(value)) return false;
          try {
            const url = new URL(value);
            return url.hostname !== '' && url.username === '' && url.password === '';
          } catch {
            return false;
          }
        },
        defaultMessage: buildMessage(() => `must be an http or https URL (at most ${MAX_URL_LENGTH} characters, no credentials)`, options),
      },
    },
    options,
  );
}

/**
 * A webhook signing secret; the empty string removes it. `whsec_<base64>` secrets (Standard Webhooks)
 * must decode to 24-64 bytes; any other secret is used as its UTF-8 bytes and needs 16-256 characters.
 */
export function IsSigningSecret(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isSigningSecret',
      validator: {
        validate: (value: unknown) => {
          if (value === '') return true;
          if (typeof value !== 'string') return false;
          // The masked form read back from the API; the service keeps the stored secret when it matches.
          if (isMaskedSecret(value)) return value.length <= 64;
          if (value.startsWith('whsec_')) {
            const body = value.slice('whsec_'.length);
            const bytes = Buffer.from(body, 'base64');
            return /^[A-Za-z0-9+/]+={0,2}$/.test(body) && bytes.length >= 24 && bytes.length <= 64;
          }
          return value.length >= 16 && value.length <= 256;
        },
        defaultMessage: buildMessage(() => 'must be 16-256 characters, or whsec_ followed by base64 of 24-64 bytes', options),
      },
    },
    options,
  );
}
