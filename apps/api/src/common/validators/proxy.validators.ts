import { ValidateBy, buildMessage, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { isMaskedSecret, MAX_PROXY_URL_LENGTH, parseProxyUrl } from '@app/security';

/** Why `value` is not a proxy URL this field takes; undefined when it is one. */
function proxyUrlProblem(value: unknown): string | undefined {
  if (typeof value !== 'string') return 'must be a string';
  if (value === '') return undefined;
  // The masked form read back from the API; the service keeps the stored URL when it matches.
  if (isMaskedSecret(value)) return value.length <= MAX_PROXY_URL_LENGTH ? undefined : `must be at most ${MAX_PROXY_URL_LENGTH} characters`;
  try {
    parseProxyUrl(value);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** `http://[user:password@]host:port` or `socks5://...`; the empty string clears it; the masked value read back keeps it. */
export function IsProxyUrl(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isProxyUrl',
      validator: {
        validate: (value: unknown) => proxyUrlProblem(value) === undefined,
        defaultMessage: buildMessage(
          (each: string, args?: ValidationArguments) => `${each}${proxyUrlProblem(args?.value) ?? 'is invalid'}`,
          options,
        ),
      },
    },
    options,
  );
}
