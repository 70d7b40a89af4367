-- CreateEnum
CREATE TYPE "MessageStatus" AS ENUM ('accepted', 'sent', 'failed');

-- AlterTable
ALTER TABLE "instances" ADD COLUMN     "send_interval_ms" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "sandbox_messages" ADD COLUMN     "duplicates" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "messages" (
    "id" TEXT NOT NULL,
    "instance_id" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "kind" TEXT NOT NULL,
    "chat_jid" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "MessageStatus" NOT NULL DEFAULT 'accepted',
    "error" TEXT,
    "idempotency_key" TEXT,
    "request_hash" TEXT,
    "accepted_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMP(3),

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "message_counters" (
    "instance_id" TEXT NOT NULL,
    "last_seq" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "message_counters_pkey" PRIMARY KEY ("instance_id")
);

-- CreateIndex
CREATE INDEX "messages_status_accepted_at_idx" ON "messages"("status", "accepted_at");

-- CreateIndex
CREATE UNIQUE INDEX "messages_instance_id_seq_key" ON "messages"("instance_id", "seq");

-- CreateIndex
CREATE UNIQUE INDEX "messages_instance_id_idempotency_key_key" ON "messages"("instance_id", "idempotency_key");

-- AddForeignKey
ALTER TABLE "messages" ADD CONSTRAINT "messages_instance_id_fkey" FOREIGN KEY ("instance_id") REFERENCES "instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;
