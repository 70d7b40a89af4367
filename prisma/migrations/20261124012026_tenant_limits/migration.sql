-- AlterTable
ALTER TABLE "customers" ADD COLUMN     "max_instances" INTEGER,
ADD COLUMN     "max_streams_per_instance" INTEGER;
