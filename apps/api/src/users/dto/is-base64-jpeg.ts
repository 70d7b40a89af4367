import { ValidateBy, buildMessage, type ValidationOptions } from 'class-validator';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** Every JPEG file starts with the start-of-image marker followed by another marker. */
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

/** Base64 of a JPEG image: the network takes profile pictures only as JPEG. */
export function IsBase64Jpeg(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isBase64Jpeg',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' &&
          value.length > 0 &&
          BASE64.test(value) &&
          Buffer.from(value, 'base64').subarray(0, JPEG_MAGIC.length).equals(JPEG_MAGIC),
        defaultMessage: buildMessage(() => 'must be a base64-encoded JPEG image', options),
      },
    },
    options,
  );
}
