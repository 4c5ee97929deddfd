-- The residency guard of writes (src/platform/placement/tenant-d1.ts): every write batch for a tenant/org starts
-- with `INSERT INTO tenant_write_guard (tenant_key, org_key) VALUES (?, ?)`. The view stores nothing; its triggers
-- abort the whole batch (one transaction) unless this database holds the tenant/org as `active`.
CREATE VIEW `tenant_write_guard` AS SELECT NULL AS `tenant_key`, NULL AS `org_key` WHERE 0;
--> statement-breakpoint
CREATE TRIGGER `tenant_write_guard_moving` INSTEAD OF INSERT ON `tenant_write_guard`
WHEN (SELECT `state` FROM `tenant_residency` WHERE `tenant_key` = NEW.`tenant_key` AND `org_key` = NEW.`org_key`) = 'moving'
BEGIN
  SELECT RAISE(ABORT, 'tenant_moving');
END;
--> statement-breakpoint
CREATE TRIGGER `tenant_write_guard_absent` INSTEAD OF INSERT ON `tenant_write_guard`
WHEN NOT EXISTS (SELECT 1 FROM `tenant_residency` WHERE `tenant_key` = NEW.`tenant_key` AND `org_key` = NEW.`org_key` AND `state` IN ('active', 'moving'))
BEGIN
  SELECT RAISE(ABORT, 'tenant_not_resident');
END;
