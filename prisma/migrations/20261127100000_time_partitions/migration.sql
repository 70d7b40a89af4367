-- Time-partitioned history (issue 24): event_log, webhook_deliveries, webhook_attempts, messages and network_messages
-- become range-partitioned by a time column, so retention drops whole partitions instead of deleting rows. The worker's
-- partition maintenance (libs/database/src/partitions) creates the daily partitions ahead and drops expired ones.
--
-- In place and without copying: each existing table that holds rows is attached, as it is, as the partition
-- `<table>_legacy` covering everything up to the end of the day of its newest row (at least the end of today); daily
-- partitions start there. Retention drops it whole once its newest day has expired.
-- Only webhook_deliveries and webhook_attempts are rewritten, to carry their event's `received_at` (their partition
-- key: a delivery and its attempts live in the partition of the same bounds as their event and are dropped with it).
-- Every table also gets a DEFAULT partition, so an insert never fails for want of a partition.

-- The old foreign keys between the three webhook tables name single columns; they are rebuilt on (id, received_at).
ALTER TABLE "webhook_attempts" DROP CONSTRAINT "webhook_attempts_event_id_fkey";
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_event_id_fkey";

-- Legacy tables: renamed, keyed the new way, their old indexes and constraints dropped (the parents' replace them).
ALTER TABLE "event_log" RENAME TO "event_log_legacy";
ALTER TABLE "event_log_legacy" DROP CONSTRAINT "event_log_pkey";
ALTER TABLE "event_log_legacy" DROP CONSTRAINT "event_log_instance_id_fkey";
DROP INDEX "event_log_instance_id_seq_key";
DROP INDEX "event_log_received_at_idx";

ALTER TABLE "webhook_deliveries" RENAME TO "webhook_deliveries_legacy";
ALTER TABLE "webhook_deliveries_legacy" DROP CONSTRAINT "webhook_deliveries_pkey";
DROP INDEX "webhook_deliveries_state_next_attempt_at_idx";
ALTER TABLE "webhook_deliveries_legacy" ADD COLUMN "received_at" TIMESTAMP(3);
UPDATE "webhook_deliveries_legacy" d SET "received_at" = e."received_at" FROM "event_log_legacy" e WHERE e."id" = d."event_id";
-- A delivery without its event cannot exist (the foreign key cascaded); none is left behind half-keyed.
DELETE FROM "webhook_deliveries_legacy" WHERE "received_at" IS NULL;
ALTER TABLE "webhook_deliveries_legacy" ALTER COLUMN "received_at" SET NOT NULL;

ALTER TABLE "webhook_attempts" RENAME TO "webhook_attempts_legacy";
ALTER TABLE "webhook_attempts_legacy" DROP CONSTRAINT "webhook_attempts_pkey";
DROP INDEX "webhook_attempts_event_id_number_key";
ALTER TABLE "webhook_attempts_legacy" ADD COLUMN "received_at" TIMESTAMP(3);
UPDATE "webhook_attempts_legacy" a SET "received_at" = d."received_at" FROM "webhook_deliveries_legacy" d WHERE d."event_id" = a."event_id";
DELETE FROM "webhook_attempts_legacy" WHERE "received_at" IS NULL;
ALTER TABLE "webhook_attempts_legacy" ALTER COLUMN "received_at" SET NOT NULL;
ALTER TABLE "webhook_attempts_legacy" ALTER COLUMN "id" DROP DEFAULT;
ALTER SEQUENCE "webhook_attempts_id_seq" OWNED BY NONE;

ALTER TABLE "messages" RENAME TO "messages_legacy";
ALTER TABLE "messages_legacy" DROP CONSTRAINT "messages_pkey";
ALTER TABLE "messages_legacy" DROP CONSTRAINT "messages_instance_id_fkey";
DROP INDEX "messages_status_accepted_at_idx";
DROP INDEX "messages_instance_id_seq_key";
DROP INDEX "messages_instance_id_idempotency_key_key";

ALTER TABLE "network_messages" RENAME TO "network_messages_legacy";
ALTER TABLE "network_messages_legacy" DROP CONSTRAINT "network_messages_pkey";
ALTER TABLE "network_messages_legacy" DROP CONSTRAINT "network_messages_instance_id_fkey";
DROP INDEX "network_messages_instance_id_id_idx";
DROP INDEX "network_messages_instance_id_chat_jid_sent_at_idx";
DROP INDEX "network_messages_created_at_idx";

-- The partitioned parents. A primary or unique key must contain the partition key.
CREATE TABLE "event_log" (
    "id" TEXT NOT NULL,
    "instance_id" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "event_type" TEXT NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL,
    "data" JSONB NOT NULL,

    CONSTRAINT "event_log_pkey" PRIMARY KEY ("id", "received_at")
) PARTITION BY RANGE ("received_at");
-- Not unique across partitions (PostgreSQL cannot enforce that without the partition key): gapless, unique seqs come
-- from the counter row each append locks, as they always did.
CREATE INDEX "event_log_instance_id_seq_idx" ON "event_log"("instance_id", "seq");

CREATE TABLE "webhook_deliveries" (
    "event_id" TEXT NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL,
    "instance_id" TEXT NOT NULL,
    "state" "DeliveryState" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "schedule_step" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("event_id", "received_at")
) PARTITION BY RANGE ("received_at");
CREATE INDEX "webhook_deliveries_state_next_attempt_at_idx" ON "webhook_deliveries"("state", "next_attempt_at");

CREATE TABLE "webhook_attempts" (
    "id" BIGINT NOT NULL DEFAULT nextval('webhook_attempts_id_seq'),
    "event_id" TEXT NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL,
    "number" INTEGER NOT NULL,
    "url" TEXT NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "status_code" INTEGER,
    "outcome" TEXT NOT NULL,
    "error" TEXT,

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id", "received_at")
) PARTITION BY RANGE ("received_at");
ALTER SEQUENCE "webhook_attempts_id_seq" OWNED BY "webhook_attempts"."id";
CREATE UNIQUE INDEX "webhook_attempts_event_id_number_received_at_key" ON "webhook_attempts"("event_id", "number", "received_at");

CREATE TABLE "messages" (
    "id" TEXT NOT NULL,
    "instance_id" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "kind" TEXT NOT NULL,
    "chat_jid" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "status" "MessageStatus" NOT NULL DEFAULT 'accepted',
    "error" TEXT,
    "idempotency_key" TEXT,
    "request_hash" TEXT,
    "accepted_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "sent_at" TIMESTAMP(3),

    CONSTRAINT "messages_pkey" PRIMARY KEY ("id", "accepted_at")
) PARTITION BY RANGE ("accepted_at");
CREATE INDEX "messages_status_accepted_at_idx" ON "messages"("status", "accepted_at");
CREATE INDEX "messages_instance_id_seq_idx" ON "messages"("instance_id", "seq");
-- A send's outcome finds its row by id alone, in every partition: this index is empty in partitions whose sends all
-- went out, so each of those probes costs one page.
CREATE INDEX "messages_accepted_id_idx" ON "messages"("id") WHERE "status" = 'accepted';

CREATE TABLE "network_messages" (
    "instance_id" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "chat_jid" TEXT NOT NULL,
    "from_me" BOOLEAN NOT NULL,
    "sender_jid" TEXT,
    "sent_at" TIMESTAMP(3) NOT NULL,
    "data" TEXT NOT NULL,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "network_messages_pkey" PRIMARY KEY ("instance_id", "chat_jid", "id", "created_at")
) PARTITION BY RANGE ("created_at");
CREATE INDEX "network_messages_instance_id_id_idx" ON "network_messages"("instance_id", "id");
CREATE INDEX "network_messages_instance_id_chat_jid_sent_at_idx" ON "network_messages"("instance_id", "chat_jid", "sent_at" DESC);

-- Idempotency keys stay unique per instance however messages are partitioned: they live in their own small table,
-- pruned with the messages they name.
CREATE TABLE "message_idempotency_keys" (
    "instance_id" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "message_id" TEXT NOT NULL,
    "request_hash" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "message_idempotency_keys_pkey" PRIMARY KEY ("instance_id", "idempotency_key")
);
CREATE INDEX "message_idempotency_keys_created_at_idx" ON "message_idempotency_keys"("created_at");
INSERT INTO "message_idempotency_keys" ("instance_id", "idempotency_key", "message_id", "request_hash", "created_at")
SELECT "instance_id", "idempotency_key", "id", "request_hash", "accepted_at" FROM "messages_legacy" WHERE "idempotency_key" IS NOT NULL;

-- Each legacy table that holds rows is attached as the partition covering everything up to the end of its newest
-- row's day (at least the end of today); an empty one is dropped. Daily partitions follow for the next days, then the
-- DEFAULT partition. The three webhook tables share the event log's bounds (a family is dropped together).
DO $$
DECLARE
  today timestamp := date_trunc('day', now() AT TIME ZONE 'UTC');
  bounds jsonb := '{}';
  day timestamp;
  spec record;
  bound timestamp;
BEGIN
  FOR spec IN SELECT * FROM (VALUES ('event_log', 'received_at'), ('messages', 'accepted_at'), ('network_messages', 'created_at')) AS s(tbl, col)
  LOOP
    EXECUTE format('SELECT date_trunc(''day'', max(%I)) + interval ''1 day'' FROM %I', spec.col, spec.tbl || '_legacy') INTO bound;
    bounds := bounds || jsonb_build_object(spec.tbl, CASE WHEN bound IS NULL THEN NULL ELSE greatest(bound, today + interval '1 day') END);
  END LOOP;
  FOR spec IN SELECT * FROM (VALUES ('event_log', 'event_log'), ('webhook_deliveries', 'event_log'), ('webhook_attempts', 'event_log'),
      ('messages', 'messages'), ('network_messages', 'network_messages')) AS s(parent, family)
  LOOP
    bound := (bounds ->> spec.family)::timestamp;
    IF bound IS NULL THEN
      EXECUTE format('DROP TABLE %I', spec.parent || '_legacy');
      day := today;
    ELSE
      EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (MINVALUE) TO (%L)', spec.parent, spec.parent || '_legacy', bound);
      day := bound;
    END IF;
    WHILE day < today + interval '3 days' LOOP
      EXECUTE format('CREATE TABLE %I PARTITION OF %I FOR VALUES FROM (%L) TO (%L)',
                     spec.parent || '_p' || to_char(day, 'YYYYMMDD'), spec.parent, day, day + interval '1 day');
      day := day + interval '1 day';
    END LOOP;
    EXECUTE format('CREATE TABLE %I PARTITION OF %I DEFAULT', spec.parent || '_default', spec.parent);
  END LOOP;
END $$;

-- Foreign keys, on the parents (each partition gets its own).
ALTER TABLE "event_log" ADD CONSTRAINT "event_log_instance_id_fkey" FOREIGN KEY ("instance_id") REFERENCES "instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_received_at_fkey" FOREIGN KEY ("event_id", "received_at") REFERENCES "event_log"("id", "received_at") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_event_id_received_at_fkey" FOREIGN KEY ("event_id", "received_at") REFERENCES "webhook_deliveries"("event_id", "received_at") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "messages" ADD CONSTRAINT "messages_instance_id_fkey" FOREIGN KEY ("instance_id") REFERENCES "instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "message_idempotency_keys" ADD CONSTRAINT "message_idempotency_keys_instance_id_fkey" FOREIGN KEY ("instance_id") REFERENCES "instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "network_messages" ADD CONSTRAINT "network_messages_instance_id_fkey" FOREIGN KEY ("instance_id") REFERENCES "instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;
