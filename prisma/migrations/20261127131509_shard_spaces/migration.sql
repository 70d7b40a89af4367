-- CreateTable
CREATE TABLE "shard_spaces" (
    "scope" TEXT NOT NULL,
    "shard_count" INTEGER NOT NULL,
    "adopted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shard_spaces_pkey" PRIMARY KEY ("scope")
);
