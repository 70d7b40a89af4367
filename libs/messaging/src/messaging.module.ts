import { Module } from '@nestjs/common';
import { SandboxNetwork } from './sandbox/sandbox-network';
import { SandboxDriver } from './sandbox/sandbox.driver';

@Module({ providers: [SandboxNetwork, SandboxDriver], exports: [SandboxNetwork, SandboxDriver] })
export class MessagingModule {}
