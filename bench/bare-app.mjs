#!/usr/bin/env node
// The baseline the benches compare against: a minimal NestJS app on Express, one controller, decorators applied
// programmatically as TypeScript would. GET /bare answers a small JSON object; POST /bare/messages does as little as
// a real send handler could (look at the body, make an id like the gateway's) and answers 201 {id}.
// Started by the benches as a child process on $PORT (loopback); stops with its parent.
import 'reflect-metadata';
import { randomBytes } from 'node:crypto';
import { BadRequestException, Body, Controller, Get, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';

class BareController {
  get() {
    return { status: 'ok', service: 'bare', version: 1 };
  }

  send(body) {
    if (typeof body?.to !== 'string' || typeof body?.message !== 'string') throw new BadRequestException('to and message are required');
    return { id: `3EB0${randomBytes(9).toString('hex').toUpperCase()}` };
  }
}

function decorate(method, decorators) {
  const descriptor = Object.getOwnPropertyDescriptor(BareController.prototype, method);
  Object.defineProperty(BareController.prototype, method, Reflect.decorate(decorators, BareController.prototype, method, descriptor));
}

Body()(BareController.prototype, 'send', 0);
decorate('get', [Get()]);
decorate('send', [Post('messages')]); // @Post answers 201 by default
Reflect.decorate([Controller('bare')], BareController);

class BareModule {}
Reflect.decorate([Module({ controllers: [BareController] })], BareModule);

const app = await NestFactory.create(BareModule, new ExpressAdapter(), { logger: false });
app.getHttpAdapter().getInstance().disable('x-powered-by');
await app.listen(Number(process.env.PORT), '127.0.0.1');
// Stop with the parent, however it ends.
process.on('disconnect', () => void app.close().finally(() => process.exit(0)));
process.on('SIGTERM', () => void app.close().finally(() => process.exit(0)));
