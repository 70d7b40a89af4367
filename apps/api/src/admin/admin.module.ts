import { Module } from '@nestjs/common';
import { DashboardModule } from '../dashboard/dashboard.module';
import { CustomersController } from './customers.controller';
import { CustomersService } from './customers.service';
import { OperatorService } from './operator.service';

@Module({ imports: [DashboardModule], controllers: [CustomersController], providers: [CustomersService, OperatorService] })
export class AdminModule {}
