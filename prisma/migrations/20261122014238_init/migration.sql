-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "InstanceStatus" AS ENUM ('unpaired', 'pairing', 'connecting', 'connected', 'disconnected');

-- CreateTable
CREATE TABLE "customers" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "default_webhook_url" TEXT,
    "default_signing_secret_enc" TEXT,
    "default_event_filters" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "default_history_sync" BOOLEAN NOT NULL DEFAULT false,
    "default_pull_mode" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "customers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "customer_api_keys" (
    "id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "key_hash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "revoked_at" TIMESTAMP(3),

    CONSTRAINT "customer_api_keys_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "instances" (
    "id" TEXT NOT NULL,
    "customer_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "status" "InstanceStatus" NOT NULL DEFAULT 'unpaired',
    "device_id" TEXT,
    "shard" INTEGER NOT NULL,
    "sandbox" BOOLEAN NOT NULL DEFAULT false,
    "api_key_hash" TEXT,
    "api_key_prefix" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL,
    "use_custom_defaults" BOOLEAN NOT NULL DEFAULT true,
    "pull_mode" BOOLEAN NOT NULL DEFAULT false,
    "webhook_url" TEXT,
    "event_signing_secret_enc" TEXT,
    "history_sync" BOOLEAN NOT NULL DEFAULT false,
    "event_filters" TEXT[] DEFAULT ARRAY[]::TEXT[],

    CONSTRAINT "instances_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "customer_api_keys_key_hash_key" ON "customer_api_keys"("key_hash");

-- CreateIndex
CREATE INDEX "customer_api_keys_customer_id_idx" ON "customer_api_keys"("customer_id");

-- CreateIndex
CREATE UNIQUE INDEX "instances_api_key_hash_key" ON "instances"("api_key_hash");

-- CreateIndex
CREATE INDEX "instances_customer_id_created_at_idx" ON "instances"("customer_id", "created_at");

-- CreateIndex
CREATE INDEX "instances_shard_idx" ON "instances"("shard");

-- AddForeignKey
ALTER TABLE "customer_api_keys" ADD CONSTRAINT "customer_api_keys_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "instances" ADD CONSTRAINT "instances_customer_id_fkey" FOREIGN KEY ("customer_id") REFERENCES "customers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
