import { Module } from '@nestjs/common';
import { AccountController } from './account.controller';
import { CustomerAccountService } from './customer-account.service';
import { InstancesService } from './instances.service';

@Module({ controllers: [AccountController], providers: [InstancesService, CustomerAccountService], exports: [InstancesService] })
export class AccountModule {}
