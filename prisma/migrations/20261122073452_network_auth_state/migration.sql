-- CreateTable
CREATE TABLE "network_credentials" (
    "instance_id" TEXT NOT NULL,
    "data" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "network_credentials_pkey" PRIMARY KEY ("instance_id")
);

-- CreateTable
CREATE TABLE "network_keys" (
    "instance_id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "key_id" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "network_keys_pkey" PRIMARY KEY ("instance_id","type","key_id")
);

-- AddForeignKey
ALTER TABLE "network_credentials" ADD CONSTRAINT "network_credentials_instance_id_fkey" FOREIGN KEY ("instance_id") REFERENCES "instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "network_keys" ADD CONSTRAINT "network_keys_instance_id_fkey" FOREIGN KEY ("instance_id") REFERENCES "instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;
