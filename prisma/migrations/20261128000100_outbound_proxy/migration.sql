-- AlterTable
ALTER TABLE "customers" ADD COLUMN     "default_proxy_url_enc" TEXT;

-- AlterTable
ALTER TABLE "instances" ADD COLUMN     "proxy_url_enc" TEXT,
ADD COLUMN     "status_reason" TEXT;
