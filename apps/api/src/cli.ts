import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { parseArgs } from 'node:util';
import { ConfigError, ConfigModule, loadConfig } from '@app/config';
import { DatabaseModule } from '@app/database';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { CustomersService } from './admin/customers.service';
import { CreateCustomerDto } from './admin/dto/customer.dto';
import { toAppError } from './common/validation';
import { LinkIssuer } from './dashboard/link-issuer';
import { TenantLimits } from './limits/tenant-limits';

const USAGE = 'usage: npm run cli -- customers:create --name <name> [--owner-email <email>]';

async function createCustomer(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { name: { type: 'string' }, 'owner-email': { type: 'string' } }, strict: true });
  const dto = plainToInstance(CreateCustomerDto, { name: values.name, ownerEmail: values['owner-email'] });
  const errors = await validate(dto);
  if (errors.length > 0) throw new Error(`${toAppError(errors).detail}\n${USAGE}`);

  @Module({ imports: [ConfigModule.forRoot(loadConfig()), DatabaseModule], providers: [CustomersService, LinkIssuer, TenantLimits] })
  class CliModule {}

  const context = await NestFactory.createApplicationContext(CliModule, { logger: false });
  try {
    const customer = await context.get(CustomersService).create(dto);
    process.stdout.write(`${JSON.stringify(customer)}\n`);
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const [command, ...rest] = process.argv.slice(2);
  if (command === 'customers:create') return createCustomer(rest);
  throw new Error(USAGE);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof Error ? error.message : error);
  process.exit(1);
});
