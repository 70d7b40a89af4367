import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { InstanceScope } from '@app/contracts';
import { InstanceAuth } from '../auth/auth.decorators';
import { CurrentScope } from '../auth/scope';
import { ApiErrors } from '../common/api-errors.decorator';
import { RequiresConnection } from '../instance-state/connected-instance.guard';
import { DownloadMediaQueryDto } from './dto/download-media.dto';
import { MediaService } from './media.service';

/** Files of received media messages. */
@ApiTags('Media')
@InstanceAuth()
@Controller('media')
export class MediaController {
  constructor(private readonly media: MediaService) {}

  /**
   * The file of a received media message, with its own content type, as an attachment. 404 for ids this instance
   * never received.
   */
  @Get('download')
  @RequiresConnection()
  @ApiProduces('application/octet-stream')
  @ApiOkResponse({
    description: 'the file; Content-Type is the media type of the file',
    content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiErrors(404)
  download(@CurrentScope() scope: InstanceScope, @Query() query: DownloadMediaQueryDto): Promise<StreamableFile> {
    return this.media.download(scope, query.id);
  }
}
