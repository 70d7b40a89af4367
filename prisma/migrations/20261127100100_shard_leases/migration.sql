-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "claimed_token" BIGINT;

-- CreateTable
CREATE TABLE "shard_leases" (
    "shard" INTEGER NOT NULL,
    "worker_id" TEXT,
    "token" BIGINT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "shard_leases_pkey" PRIMARY KEY ("shard")
);

-- CreateTable
CREATE TABLE "shard_workers" (
    "id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "shard_workers_pkey" PRIMARY KEY ("id")
);

-- Fencing tokens for shard leases: strictly increasing over every shard and never reused, so a token names exactly one
-- lease, and it survives any loss of Redis (leases lived in Redis before this migration). Workers of a build with Redis
-- leases must all be stopped before a worker of this build starts (README, Operations).
CREATE SEQUENCE "shard_lease_token_seq" AS BIGINT;
