-- AlterTable
ALTER TABLE "sandbox_groups" ADD COLUMN     "description" TEXT,
ADD COLUMN     "ephemeral_seconds" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "join_approval" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "member_add_mode" TEXT NOT NULL DEFAULT 'admin_add',
ADD COLUMN     "picture_id" TEXT;

-- CreateTable
CREATE TABLE "chats" (
    "instance_id" TEXT NOT NULL,
    "jid" TEXT NOT NULL,
    "lid" TEXT,
    "is_group" BOOLEAN NOT NULL DEFAULT false,
    "archived" BOOLEAN NOT NULL DEFAULT false,
    "pinned" BOOLEAN NOT NULL DEFAULT false,
    "muted" BOOLEAN NOT NULL DEFAULT false,
    "mute_end_time" TIMESTAMP(3),
    "read" BOOLEAN NOT NULL DEFAULT true,
    "ephemeral_seconds" INTEGER NOT NULL DEFAULT 0,
    "last_activity" TIMESTAMP(3),
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "chats_pkey" PRIMARY KEY ("instance_id","jid")
);

-- CreateTable
CREATE TABLE "contacts" (
    "instance_id" TEXT NOT NULL,
    "jid" TEXT NOT NULL,
    "lid" TEXT,
    "push_name" TEXT,
    "full_name" TEXT,
    "first_name" TEXT,
    "business_name" TEXT,
    "in_address_book" BOOLEAN NOT NULL DEFAULT false,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "contacts_pkey" PRIMARY KEY ("instance_id","jid")
);

-- CreateTable
CREATE TABLE "group_metadata" (
    "instance_id" TEXT NOT NULL,
    "jid" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT,
    "owner_jid" TEXT,
    "is_community" BOOLEAN NOT NULL DEFAULT false,
    "parent_jid" TEXT,
    "is_announcement" BOOLEAN NOT NULL DEFAULT false,
    "locked" BOOLEAN NOT NULL DEFAULT false,
    "announce" BOOLEAN NOT NULL DEFAULT false,
    "join_approval" BOOLEAN NOT NULL DEFAULT false,
    "member_add_mode" TEXT NOT NULL DEFAULT 'admin_add',
    "ephemeral_seconds" INTEGER NOT NULL DEFAULT 0,
    "participants" JSONB NOT NULL DEFAULT '[]',
    "created_at" TIMESTAMP(3),
    "synced_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "group_metadata_pkey" PRIMARY KEY ("instance_id","jid")
);

-- CreateTable
CREATE TABLE "sandbox_operations" (
    "seq" BIGSERIAL NOT NULL,
    "instance_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "args" JSONB NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_operations_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "sandbox_records" (
    "instance_id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_records_pkey" PRIMARY KEY ("instance_id","kind","key")
);

-- CreateIndex
CREATE INDEX "chats_instance_id_last_activity_idx" ON "chats"("instance_id", "last_activity" DESC);

-- CreateIndex
CREATE INDEX "contacts_instance_id_lid_idx" ON "contacts"("instance_id", "lid");

-- CreateIndex
CREATE INDEX "group_metadata_instance_id_parent_jid_idx" ON "group_metadata"("instance_id", "parent_jid");

-- CreateIndex
CREATE INDEX "sandbox_operations_instance_id_seq_idx" ON "sandbox_operations"("instance_id", "seq");

-- AddForeignKey
ALTER TABLE "chats" ADD CONSTRAINT "chats_instance_id_fkey" FOREIGN KEY ("instance_id") REFERENCES "instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_instance_id_fkey" FOREIGN KEY ("instance_id") REFERENCES "instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "group_metadata" ADD CONSTRAINT "group_metadata_instance_id_fkey" FOREIGN KEY ("instance_id") REFERENCES "instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;
