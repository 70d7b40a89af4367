import { Injectable } from '@nestjs/common';
import { BaileysDriver, SandboxDriver, type NetworkDriver } from '@app/messaging';

/** Instances choose their network by their sandbox flag: the simulated one, or the real one through Baileys. */
@Injectable()
export class DriverRegistry {
  constructor(
    private readonly sandbox: SandboxDriver,
    private readonly baileys: BaileysDriver,
  ) {}

  for(instance: { sandbox: boolean }): NetworkDriver {
    return instance.sandbox ? this.sandbox : this.baileys;
  }
}
