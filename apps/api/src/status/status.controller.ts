import { Body, Controller, Get, HttpCode, Param, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiExtraModels, ApiNoContentResponse, ApiOkResponse, ApiTags, getSchemaPath } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { CreatedIdDto } from '../common/created-id.dto';
import { RequiresConnection } from '../instance-state/connected-instance.guard';
import { PostImageStatusDto, PostTextStatusDto, PostVideoStatusDto, StatusPrivacyDto, StatusPrivacyQueryDto } from './dto/status.dto';
import { messageIdParam } from './message-id.pipe';
import { StatusService } from './status.service';

/** Status updates (stories): posted to the contacts the account's status privacy allows. */
@ApiTags('Status')
@InstanceAuth()
@Controller('status')
export class StatusController {
  constructor(private readonly status: StatusService) {}

  /** Who sees the account's status posts, as set on the phone: the setting in force, or every list with `format=list`. */
  @Get('privacy')
  @RequiresConnection()
  @ApiExtraModels(StatusPrivacyDto)
  @ApiOkResponse({
    schema: {
      oneOf: [{ $ref: getSchemaPath(StatusPrivacyDto) }, { type: 'array', items: { $ref: getSchemaPath(StatusPrivacyDto) } }],
    },
  })
  @ApiErrors(400)
  privacy(@CurrentScope() scope: InstanceScope, @Query() query: StatusPrivacyQueryDto): Promise<StatusPrivacyDto | StatusPrivacyDto[]> {
    return this.status.privacy(scope, query.format ?? 'object');
  }

  /** Posts a text status; the id is the status message id. */
  @Post('text')
  @RequiresConnection()
  @ApiCreatedResponse({ type: CreatedIdDto })
  postText(@CurrentScope() scope: InstanceScope, @Body() dto: PostTextStatusDto): Promise<CreatedIdDto> {
    return this.status.postText(scope, dto);
  }

  /** Posts an image status from a public `url` or base64 `data` (a request body is at most 1 MiB). */
  @Post('image')
  @RequiresConnection()
  @ApiCreatedResponse({ type: CreatedIdDto })
  postImage(@CurrentScope() scope: InstanceScope, @Body() dto: PostImageStatusDto): Promise<CreatedIdDto> {
    return this.status.postMedia(scope, 'image', dto);
  }

  /** Posts a video status from a public `url` or base64 `data` (a request body is at most 1 MiB). */
  @Post('video')
  @RequiresConnection()
  @ApiCreatedResponse({ type: CreatedIdDto })
  postVideo(@CurrentScope() scope: InstanceScope, @Body() dto: PostVideoStatusDto): Promise<CreatedIdDto> {
    return this.status.postMedia(scope, 'video', dto);
  }

  /** Revokes one of the account's own status posts for everyone (a `message_delete` event follows). */
  @Post(':messageId/delete')
  @HttpCode(204)
  @RequiresConnection()
  @ApiNoContentResponse({ description: 'status deleted' })
  @ApiErrors(404)
  delete(@CurrentScope() scope: InstanceScope, @Param('messageId', messageIdParam()) messageId: string): Promise<void> {
    return this.status.delete(scope, messageId);
  }
}
