import { Global, Module } from '@nestjs/common';
import { CommandClient } from './command-client';
import { CommandServer } from './command-server';
import { InvalidationBus } from './invalidation-bus';
import { RedisService } from './redis.service';

@Global()
@Module({
  providers: [RedisService, InvalidationBus, CommandClient, CommandServer],
  exports: [RedisService, InvalidationBus, CommandClient, CommandServer],
})
export class RedisModule {}
