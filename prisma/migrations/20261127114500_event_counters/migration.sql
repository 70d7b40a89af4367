-- The per-instance event counter leaves `instances` (issue 24): every event append raised `instances.event_seq`, on a
-- row with four indexes and the list-version triggers that every request of the instance also reads. It gets a narrow
-- table of its own, as sends have `message_counters`.
-- CreateTable
CREATE TABLE "event_counters" (
    "instance_id" TEXT NOT NULL,
    "last_seq" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "event_counters_pkey" PRIMARY KEY ("instance_id")
);

-- AddForeignKey
ALTER TABLE "event_counters" ADD CONSTRAINT "event_counters_instance_id_fkey" FOREIGN KEY ("instance_id") REFERENCES "instances"("id") ON DELETE CASCADE ON UPDATE CASCADE;

INSERT INTO "event_counters" ("instance_id", "last_seq") SELECT "id", "event_seq" FROM "instances";

-- AlterTable
ALTER TABLE "instances" DROP COLUMN "event_seq";

-- Every instance has its counter row from its first moment, whoever creates it, so an append only ever updates one.
CREATE FUNCTION "create_event_counter"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "event_counters" ("instance_id") VALUES (NEW."id");
  RETURN NULL;
END $$;

CREATE TRIGGER "instances_event_counter_on_insert" AFTER INSERT ON "instances"
  FOR EACH ROW EXECUTE FUNCTION "create_event_counter"();
