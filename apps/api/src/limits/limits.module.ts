import { Global, Module } from '@nestjs/common';
import { TenantLimits } from './tenant-limits';

@Global()
@Module({ providers: [TenantLimits], exports: [TenantLimits] })
export class LimitsModule {}
