-- CreateTable
CREATE TABLE "sandbox_chats" (
    "instance_id" TEXT NOT NULL,
    "jid" TEXT NOT NULL,
    "muted" BOOLEAN NOT NULL DEFAULT false,
    "mute_end_time" TIMESTAMP(3),
    "pinned" BOOLEAN NOT NULL DEFAULT false,
    "archived" BOOLEAN NOT NULL DEFAULT false,
    "read" BOOLEAN NOT NULL DEFAULT true,
    "ephemeral_seconds" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "sandbox_chats_pkey" PRIMARY KEY ("instance_id","jid")
);

-- CreateTable
CREATE TABLE "sandbox_newsletters" (
    "instance_id" TEXT NOT NULL,
    "jid" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "muted" BOOLEAN NOT NULL DEFAULT false,
    "joined_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sandbox_newsletters_pkey" PRIMARY KEY ("instance_id","jid")
);
