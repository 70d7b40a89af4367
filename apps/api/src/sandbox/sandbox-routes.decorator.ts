import { Controller, applyDecorators } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { InstanceAuth } from '../auth/auth.decorators';
import { ApiErrors } from '../common/api-errors.decorator';

/** A controller of the sandbox control surface: instance routes under `/sandbox`, documented under the Sandbox tag. */
export function SandboxRoutes(): ClassDecorator {
  return applyDecorators(ApiTags('Sandbox'), InstanceAuth(), ApiErrors(404, 503), Controller('sandbox'));
}
