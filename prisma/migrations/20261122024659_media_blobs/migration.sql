-- CreateTable
CREATE TABLE "media_blobs" (
    "id" TEXT NOT NULL,
    "instance_id" TEXT NOT NULL,
    "mime_type" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "sha256" TEXT NOT NULL,
    "bytes" BYTEA NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "media_blobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "media_blobs_instance_id_idx" ON "media_blobs"("instance_id");
