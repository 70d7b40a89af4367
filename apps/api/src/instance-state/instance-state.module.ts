import { Global, Module } from '@nestjs/common';
import { ConnectedInstanceGuard } from './connected-instance.guard';
import { LiveStatusReader } from './live-status.reader';

@Global()
@Module({ providers: [LiveStatusReader, ConnectedInstanceGuard], exports: [LiveStatusReader, ConnectedInstanceGuard] })
export class InstanceStateModule {}
