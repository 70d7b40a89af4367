-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "claimed_token" BIGINT;

-- CreateTable
CREATE TABLE "shard_leases" (
    "scope" TEXT NOT NULL,
    "shard" INTEGER NOT NULL,
    "worker_id" TEXT,
    "token" BIGINT,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "shard_leases_pkey" PRIMARY KEY ("scope","shard")
);

-- CreateTable
CREATE TABLE "shard_workers" (
    "scope" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "shard_workers_pkey" PRIMARY KEY ("scope","id")
);

-- CreateIndex
CREATE UNIQUE INDEX "shard_leases_token_key" ON "shard_leases"("token");

-- Fencing tokens for shard leases: strictly increasing over every shard and never reused, so a token names exactly one
-- lease (hence the unique index, which fenced writes look the lease up by), and it survives any loss of Redis (leases
-- lived in Redis before this migration). Workers of a build with Redis leases must all be stopped before a worker of
-- this build starts (README, Operations).
CREATE SEQUENCE "shard_lease_token_seq" AS BIGINT;
