import { Module } from '@nestjs/common';
import { PublicUrls } from '../common/public-urls';
import { StatusController } from './status.controller';
import { StatusService } from './status.service';

@Module({ controllers: [StatusController], providers: [StatusService, PublicUrls] })
export class StatusModule {}
