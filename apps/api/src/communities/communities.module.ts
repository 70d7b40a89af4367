import { Module } from '@nestjs/common';
import { CommunitiesController } from './communities.controller';
import { CommunitiesService } from './communities.service';

@Module({ controllers: [CommunitiesController], providers: [CommunitiesService] })
export class CommunitiesModule {}
