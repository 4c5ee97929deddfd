-- The row count of each entity table per tenant/org, kept by triggers in the same statement (so the same batch) as
-- every insert and delete: an unfiltered `$count` reads one row instead of counting the tenant/org's rows. Not in the
-- drizzle schema (src/entities/counts.ts only reads it): a move does not copy it; its triggers count the rows the
-- copy inserts on the target and uncount those it deletes from the source.
CREATE TABLE `entity_counts` (
  `tenant_key` text NOT NULL,
  `org_key` text NOT NULL,
  `entity` text NOT NULL,
  `rows` integer NOT NULL,
  PRIMARY KEY (`tenant_key`, `org_key`, `entity`)
) WITHOUT ROWID;
--> statement-breakpoint
CREATE TRIGGER `email_templates_count_insert` AFTER INSERT ON `email_templates` BEGIN
  INSERT INTO `entity_counts` (`tenant_key`, `org_key`, `entity`, `rows`) VALUES (NEW.`tenant_key`, NEW.`org_key`, 'email_templates', 1)
  ON CONFLICT (`tenant_key`, `org_key`, `entity`) DO UPDATE SET `rows` = `rows` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `email_templates_count_delete` AFTER DELETE ON `email_templates` BEGIN
  UPDATE `entity_counts` SET `rows` = `rows` - 1 WHERE `tenant_key` = OLD.`tenant_key` AND `org_key` = OLD.`org_key` AND `entity` = 'email_templates';
END;
--> statement-breakpoint
INSERT INTO `entity_counts` (`tenant_key`, `org_key`, `entity`, `rows`) SELECT `tenant_key`, `org_key`, 'email_templates', count(*) FROM `email_templates` GROUP BY `tenant_key`, `org_key`;
--> statement-breakpoint
CREATE TRIGGER `routes_count_insert` AFTER INSERT ON `routes` BEGIN
  INSERT INTO `entity_counts` (`tenant_key`, `org_key`, `entity`, `rows`) VALUES (NEW.`tenant_key`, NEW.`org_key`, 'routes', 1)
  ON CONFLICT (`tenant_key`, `org_key`, `entity`) DO UPDATE SET `rows` = `rows` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `routes_count_delete` AFTER DELETE ON `routes` BEGIN
  UPDATE `entity_counts` SET `rows` = `rows` - 1 WHERE `tenant_key` = OLD.`tenant_key` AND `org_key` = OLD.`org_key` AND `entity` = 'routes';
END;
--> statement-breakpoint
INSERT INTO `entity_counts` (`tenant_key`, `org_key`, `entity`, `rows`) SELECT `tenant_key`, `org_key`, 'routes', count(*) FROM `routes` GROUP BY `tenant_key`, `org_key`;
--> statement-breakpoint
CREATE TRIGGER `exchange_rates_documents_count_insert` AFTER INSERT ON `exchange_rates_documents` BEGIN
  INSERT INTO `entity_counts` (`tenant_key`, `org_key`, `entity`, `rows`) VALUES (NEW.`tenant_key`, NEW.`org_key`, 'exchange_rates_documents', 1)
  ON CONFLICT (`tenant_key`, `org_key`, `entity`) DO UPDATE SET `rows` = `rows` + 1;
END;
--> statement-breakpoint
CREATE TRIGGER `exchange_rates_documents_count_delete` AFTER DELETE ON `exchange_rates_documents` BEGIN
  UPDATE `entity_counts` SET `rows` = `rows` - 1 WHERE `tenant_key` = OLD.`tenant_key` AND `org_key` = OLD.`org_key` AND `entity` = 'exchange_rates_documents';
END;
--> statement-breakpoint
INSERT INTO `entity_counts` (`tenant_key`, `org_key`, `entity`, `rows`) SELECT `tenant_key`, `org_key`, 'exchange_rates_documents', count(*) FROM `exchange_rates_documents` GROUP BY `tenant_key`, `org_key`;
