-- CreateTable
CREATE TABLE "shard_spaces" (
    "scope" TEXT NOT NULL,
    "shard_count" INTEGER NOT NULL,
    "adopted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "shard_spaces_pkey" PRIMARY KEY ("scope")
);

-- A database upgraded from a build before shard spaces: its instances were sharded with a count nobody recorded. This
-- marker (scope '') makes the first worker of the new build re-shard them; a new database (no instances yet) gets none,
-- so deployments that share one database never re-shard each other's instances.
INSERT INTO "shard_spaces" ("scope", "shard_count") SELECT '', 0 WHERE EXISTS (SELECT 1 FROM "instances");
