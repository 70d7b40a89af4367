-- AlterTable
ALTER TABLE "customers" ADD COLUMN     "instances_version" BIGINT NOT NULL DEFAULT 0;

-- The API caches pages of the instance list and checks each against customers.instances_version on every read. The
-- version is raised in the same transaction as the change, so every snapshot that reads one version reads the same
-- instances: a page cached with the version it was read with is what a new read at that version returns. Left out:
-- event_seq, raised by every event append (the hot path, and the list does not show it), and updated_at, which moves with it.
CREATE FUNCTION "raise_instances_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    UPDATE "customers" SET "instances_version" = "instances_version" + 1 WHERE "id" = OLD."customer_id";
  END IF;
  IF TG_OP = 'INSERT' THEN
    UPDATE "customers" SET "instances_version" = "instances_version" + 1 WHERE "id" = NEW."customer_id";
  ELSIF TG_OP = 'UPDATE' THEN
    IF NEW."customer_id" IS DISTINCT FROM OLD."customer_id" THEN
      UPDATE "customers" SET "instances_version" = "instances_version" + 1 WHERE "id" = NEW."customer_id";
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "instances_version_on_insert_or_delete" AFTER INSERT OR DELETE ON "instances"
  FOR EACH ROW EXECUTE FUNCTION "raise_instances_version"();

-- Every column counts but the two above, so a column added later is covered without touching this trigger.
CREATE TRIGGER "instances_version_on_update" AFTER UPDATE ON "instances"
  FOR EACH ROW
  WHEN ((to_jsonb(OLD) - 'event_seq' - 'updated_at') IS DISTINCT FROM (to_jsonb(NEW) - 'event_seq' - 'updated_at'))
  EXECUTE FUNCTION "raise_instances_version"();
