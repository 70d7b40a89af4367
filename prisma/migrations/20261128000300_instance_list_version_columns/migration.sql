-- The instance-list cache's trigger names the columns whose change raises the customer's instances_version (see
-- 20261124115051_instance_list_version). The outbound proxy and the event sink added three columns to instances; a
-- change to them (a new proxy, its failure reason, a new sink) must invalidate the cached list pages too.
DROP TRIGGER "instances_version_on_update" ON "instances";
CREATE TRIGGER "instances_version_on_update"
  AFTER UPDATE OF "id", "customer_id", "name", "status", "device_id", "shard", "sandbox", "api_key_hash", "api_key_prefix",
    "created_at", "use_custom_defaults", "pull_mode", "webhook_url", "event_signing_secret_enc", "history_sync",
    "event_filters", "status_changed_at", "send_interval_ms", "proxy_url_enc", "status_reason", "event_sink_enc"
  ON "instances"
  FOR EACH ROW EXECUTE FUNCTION "raise_instances_version"();
