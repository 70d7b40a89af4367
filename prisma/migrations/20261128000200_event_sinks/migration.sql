-- Event sinks (issue 27): events published to a message broker (RabbitMQ, NATS JetStream) as well as to, or instead of,
-- the webhook. The sink settings (kind, broker URL with its credentials, exchange/routing key or subject) are one JSON
-- document per instance and per customer (the default), encrypted like the signing secrets.
ALTER TABLE "customers" ADD COLUMN "default_event_sink_enc" TEXT;
ALTER TABLE "instances" ADD COLUMN "event_sink_enc" TEXT;

-- One sink delivery per event meant for a broker, created in the event's commit, and its attempts: both partitioned
-- like the event log (same bounds, same partition names), so they join its family and are dropped with it.
CREATE TABLE "sink_deliveries" (
    "event_id" TEXT NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL,
    "instance_id" TEXT NOT NULL,
    "seq" BIGINT NOT NULL,
    "state" "DeliveryState" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "schedule_step" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_error" TEXT,
    "created_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "sink_deliveries_pkey" PRIMARY KEY ("event_id", "received_at")
) PARTITION BY RANGE ("received_at");
-- An instance's publisher reads its pending deliveries in seq order: only pending rows are indexed for it, so the
-- delivered history costs the read nothing.
CREATE INDEX "sink_deliveries_instance_id_seq_idx" ON "sink_deliveries"("instance_id", "seq") WHERE "state" = 'pending';
CREATE INDEX "sink_deliveries_state_next_attempt_at_idx" ON "sink_deliveries"("state", "next_attempt_at");

CREATE SEQUENCE "sink_attempts_id_seq";
CREATE TABLE "sink_attempts" (
    "id" BIGINT NOT NULL DEFAULT nextval('sink_attempts_id_seq'),
    "event_id" TEXT NOT NULL,
    "received_at" TIMESTAMP(3) NOT NULL,
    "number" INTEGER NOT NULL,
    "sink" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "started_at" TIMESTAMP(3) NOT NULL,
    "duration_ms" INTEGER NOT NULL,
    "outcome" TEXT NOT NULL,
    "error" TEXT,

    CONSTRAINT "sink_attempts_pkey" PRIMARY KEY ("id", "received_at")
) PARTITION BY RANGE ("received_at");
ALTER SEQUENCE "sink_attempts_id_seq" OWNED BY "sink_attempts"."id";
CREATE UNIQUE INDEX "sink_attempts_event_id_number_received_at_key" ON "sink_attempts"("event_id", "number", "received_at");

-- A partition of each new table for every partition the event log has now (daily ones, a legacy one, DEFAULT), with
-- its bounds and its name's suffix: the partition maintenance treats the family's tables alike from here on.
DO $$
DECLARE
  part record;
  tbl text;
BEGIN
  FOR part IN
    SELECT c.relname AS name, pg_get_expr(c.relpartbound, c.oid) AS bound
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'event_log'::regclass
  LOOP
    FOREACH tbl IN ARRAY ARRAY['sink_deliveries', 'sink_attempts'] LOOP
      EXECUTE format('CREATE TABLE %I PARTITION OF %I %s', tbl || substr(part.name, length('event_log') + 1), tbl, part.bound);
    END LOOP;
  END LOOP;
END $$;

ALTER TABLE "sink_deliveries" ADD CONSTRAINT "sink_deliveries_event_id_received_at_fkey" FOREIGN KEY ("event_id", "received_at") REFERENCES "event_log"("id", "received_at") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "sink_attempts" ADD CONSTRAINT "sink_attempts_event_id_received_at_fkey" FOREIGN KEY ("event_id", "received_at") REFERENCES "sink_deliveries"("event_id", "received_at") ON DELETE CASCADE ON UPDATE CASCADE;
