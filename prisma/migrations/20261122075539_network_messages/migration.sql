-- CreateTable
CREATE TABLE "network_messages" (
    "instance_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "chat_jid" TEXT NOT NULL,
    "from_me" BOOLEAN NOT NULL,
    "sender_jid" TEXT,
    "sent_at" TIMESTAMP(3) NOT NULL,
    "data" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "network_messages_pkey" PRIMARY KEY ("instance_id","chat_jid","id")
);

-- CreateIndex
CREATE INDEX "network_messages_instance_id_id_idx" ON "network_messages"("instance_id", "id");

-- CreateIndex
CREATE INDEX "network_messages_instance_id_chat_jid_sent_at_idx" ON "network_messages"("instance_id", "chat_jid", "sent_at" DESC);

-- CreateIndex
CREATE INDEX "network_messages_created_at_idx" ON "network_messages"("created_at");

-- AddForeignKey
ALTER TABLE "network_messages" ADD CONSTRAINT "network_messages_instance_id_fkey" FOREIGN KEY ("instance_id") REFERENCES "instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;
