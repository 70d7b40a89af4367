import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma.service';
import type { KeyPrincipal } from '../records';

/** Resolves API key hashes to who they belong to; the guards' only way into the key tables. */
@Injectable()
export class CredentialRepository {
  constructor(private readonly prisma: PrismaService) {}

  async principalForKeyHash(hash: string): Promise<KeyPrincipal | null> {
    const customerKey = await this.prisma.customerApiKey.findUnique({
      where: { keyHash: hash },
      select: { customerId: true, revokedAt: true, customer: { select: { disabledAt: true } } },
    });
    if (customerKey) {
      if (customerKey.revokedAt) return null;
      return { kind: 'customer', customerId: customerKey.customerId, customerDisabled: customerKey.customer.disabledAt !== null };
    }
    const instance = await this.prisma.instance.findUnique({
      where: { apiKeyHash: hash },
      select: { id: true, customerId: true, customer: { select: { disabledAt: true } } },
    });
    if (!instance) return null;
    return {
      kind: 'instance',
      customerId: instance.customerId,
      instanceId: instance.id,
      customerDisabled: instance.customer.disabledAt !== null,
    };
  }

  async ownerOfInstance(instanceId: string): Promise<string | null> {
    const instance = await this.prisma.instance.findUnique({ where: { id: instanceId }, select: { customerId: true } });
    return instance?.customerId ?? null;
  }
}
