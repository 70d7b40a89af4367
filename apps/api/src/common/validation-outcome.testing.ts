import type { Type } from '@nestjs/common';
import { AppError } from '@app/contracts';
import { createValidationPipe } from './validation';

const pipe = createValidationPipe();

/** For specs: runs the production pipe; 'ok' when the body passes, else the exact `detail` of the 400. */
export async function validationOutcome(metatype: Type<unknown>, body: unknown): Promise<string> {
  try {
    await pipe.transform(body, { type: 'body', metatype });
    return 'ok';
  } catch (error) {
    if (error instanceof AppError) return error.detail;
    throw error;
  }
}
