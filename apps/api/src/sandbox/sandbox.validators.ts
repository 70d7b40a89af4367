/** The message of an `@IsIn` check: the values it accepts. */
export const oneOf = (values: readonly string[]) => ({ message: `must be one of ${values.join(', ')}` });
