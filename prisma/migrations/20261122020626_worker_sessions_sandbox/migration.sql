-- AlterTable
ALTER TABLE "instances" ADD COLUMN     "event_seq" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "status_changed_at" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "event_log" (
    "id" TEXT NOT NULL,
    "instance_id" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "event_type" TEXT NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL,
    "data" JSONB NOT NULL,

    CONSTRAINT "event_log_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sandbox_devices" (
    "instance_id" TEXT NOT NULL,
    "phone" TEXT,
    "device_id" TEXT,
    "push_name" TEXT,
    "online" BOOLEAN NOT NULL DEFAULT true,
    "paired_at" TIMESTAMP(3),

    CONSTRAINT "sandbox_devices_pkey" PRIMARY KEY ("instance_id")
);

-- CreateTable
CREATE TABLE "sandbox_contacts" (
    "instance_id" TEXT NOT NULL,
    "jid" TEXT NOT NULL,
    "lid" TEXT,
    "push_name" TEXT,
    "full_name" TEXT,
    "business_name" TEXT,

    CONSTRAINT "sandbox_contacts_pkey" PRIMARY KEY ("instance_id","jid")
);

-- CreateTable
CREATE TABLE "sandbox_groups" (
    "instance_id" TEXT NOT NULL,
    "jid" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "parent_jid" TEXT,
    "invite_code" TEXT NOT NULL,
    "locked" BOOLEAN NOT NULL DEFAULT false,
    "announce" BOOLEAN NOT NULL DEFAULT false,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_groups_pkey" PRIMARY KEY ("instance_id","jid")
);

-- CreateTable
CREATE TABLE "sandbox_group_participants" (
    "instance_id" TEXT NOT NULL,
    "group_jid" TEXT NOT NULL,
    "jid" TEXT NOT NULL,
    "role" TEXT NOT NULL,

    CONSTRAINT "sandbox_group_participants_pkey" PRIMARY KEY ("instance_id","group_jid","jid")
);

-- CreateTable
CREATE TABLE "sandbox_messages" (
    "instance_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "direction" TEXT NOT NULL,
    "chat_jid" TEXT NOT NULL,
    "sender_jid" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "content" JSONB NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'sent',
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_messages_pkey" PRIMARY KEY ("instance_id","id")
);

-- CreateIndex
CREATE INDEX "event_log_received_at_idx" ON "event_log"("received_at");

-- CreateIndex
CREATE UNIQUE INDEX "event_log_instance_id_seq_key" ON "event_log"("instance_id", "seq");

-- CreateIndex
CREATE INDEX "sandbox_messages_instance_id_seq_idx" ON "sandbox_messages"("instance_id", "seq");

-- AddForeignKey
ALTER TABLE "event_log" ADD CONSTRAINT "event_log_instance_id_fkey" FOREIGN KEY ("instance_id") REFERENCES "instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sandbox_group_participants" ADD CONSTRAINT "sandbox_group_participants_instance_id_group_jid_fkey" FOREIGN KEY ("instance_id", "group_jid") REFERENCES "sandbox_groups"("instance_id", "jid") ON DELETE CASCADE ON UPDATE CASCADE;
