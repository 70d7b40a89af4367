-- Who runs the partition maintenance. A lease row rather than a session advisory lock: behind a transaction pooler
-- (DATABASE_POOLER=transaction) one client's consecutive transactions may run on different server connections, so a
-- session lock would stay behind on a server connection that other clients then use, and its unlock would miss it.
-- CreateTable
CREATE TABLE "maintenance_leases" (
    "name" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "maintenance_leases_pkey" PRIMARY KEY ("name")
);
