import { Module } from '@nestjs/common';
import { AccountModule } from '../account/account.module';
import { InstanceController } from './instance.controller';

@Module({ imports: [AccountModule], controllers: [InstanceController] })
export class InstanceModule {}
