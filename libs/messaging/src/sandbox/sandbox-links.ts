import { Injectable } from '@nestjs/common';
import { AppError } from '@app/contracts';
import type { AttachedLink, SandboxLink } from './sandbox-link';

/** The sessions this worker runs on the simulated network, one per instance: how the network reaches an instance. */
@Injectable()
export class SandboxLinks {
  private readonly links = new Map<string, AttachedLink>();

  attach(link: AttachedLink): void {
    this.links.set(link.identity.instanceId, link);
  }

  detach(link: AttachedLink): void {
    if (this.links.get(link.identity.instanceId) === link) this.links.delete(link.identity.instanceId);
  }

  /** The instance's link when it is open; otherwise the network cannot reach it (503). */
  open(instanceId: string): SandboxLink {
    const link = this.links.get(instanceId);
    if (!link?.isOpen) throw new AppError('instance_unavailable');
    return link;
  }

  /** The instance's session, if any: it hears an event only while its link is open. */
  find(instanceId: string): AttachedLink | undefined {
    return this.links.get(instanceId);
  }
}
