-- Trigram text indexes (SQLite FTS5, case-sensitive like GLOB) of the text fields an entity declares `textSearch`:
-- contains/startswith/endswith with a literal of 3 or more characters read them when they find few rows (src/entities/text-search.ts). External
-- content tables (the text stays in the entity table only), kept by triggers in the same statement as every insert,
-- update and delete, so in the same batch; a tenant/org's move inserts and deletes rows, so the triggers index them on
-- the target and drop them on the source. Existing rows are indexed by the 'rebuild' at the end of each block.
CREATE VIRTUAL TABLE `email_templates_text` USING fts5(`template_key`, `subject`, `description`, content='email_templates', content_rowid='rowid', tokenize='trigram case_sensitive 1');
--> statement-breakpoint
CREATE TRIGGER `email_templates_text_insert` AFTER INSERT ON `email_templates` BEGIN
  INSERT INTO `email_templates_text` (rowid, `template_key`, `subject`, `description`) VALUES (NEW.rowid, NEW.`template_key`, NEW.`subject`, NEW.`description`);
END;
--> statement-breakpoint
CREATE TRIGGER `email_templates_text_delete` AFTER DELETE ON `email_templates` BEGIN
  INSERT INTO `email_templates_text` (`email_templates_text`, rowid, `template_key`, `subject`, `description`) VALUES ('delete', OLD.rowid, OLD.`template_key`, OLD.`subject`, OLD.`description`);
END;
--> statement-breakpoint
CREATE TRIGGER `email_templates_text_update` AFTER UPDATE OF `template_key`, `subject`, `description` ON `email_templates` BEGIN
  INSERT INTO `email_templates_text` (`email_templates_text`, rowid, `template_key`, `subject`, `description`) VALUES ('delete', OLD.rowid, OLD.`template_key`, OLD.`subject`, OLD.`description`);
  INSERT INTO `email_templates_text` (rowid, `template_key`, `subject`, `description`) VALUES (NEW.rowid, NEW.`template_key`, NEW.`subject`, NEW.`description`);
END;
--> statement-breakpoint
INSERT INTO `email_templates_text` (`email_templates_text`) VALUES ('rebuild');
--> statement-breakpoint
CREATE VIRTUAL TABLE `routes_text` USING fts5(`route_key`, `description`, `remarks`, content='routes', content_rowid='rowid', tokenize='trigram case_sensitive 1');
--> statement-breakpoint
CREATE TRIGGER `routes_text_insert` AFTER INSERT ON `routes` BEGIN
  INSERT INTO `routes_text` (rowid, `route_key`, `description`, `remarks`) VALUES (NEW.rowid, NEW.`route_key`, NEW.`description`, NEW.`remarks`);
END;
--> statement-breakpoint
CREATE TRIGGER `routes_text_delete` AFTER DELETE ON `routes` BEGIN
  INSERT INTO `routes_text` (`routes_text`, rowid, `route_key`, `description`, `remarks`) VALUES ('delete', OLD.rowid, OLD.`route_key`, OLD.`description`, OLD.`remarks`);
END;
--> statement-breakpoint
CREATE TRIGGER `routes_text_update` AFTER UPDATE OF `route_key`, `description`, `remarks` ON `routes` BEGIN
  INSERT INTO `routes_text` (`routes_text`, rowid, `route_key`, `description`, `remarks`) VALUES ('delete', OLD.rowid, OLD.`route_key`, OLD.`description`, OLD.`remarks`);
  INSERT INTO `routes_text` (rowid, `route_key`, `description`, `remarks`) VALUES (NEW.rowid, NEW.`route_key`, NEW.`description`, NEW.`remarks`);
END;
--> statement-breakpoint
INSERT INTO `routes_text` (`routes_text`) VALUES ('rebuild');
--> statement-breakpoint
CREATE VIRTUAL TABLE `exchange_rates_documents_text` USING fts5(`external_id`, `external_version`, content='exchange_rates_documents', content_rowid='rowid', tokenize='trigram case_sensitive 1');
--> statement-breakpoint
CREATE TRIGGER `exchange_rates_documents_text_insert` AFTER INSERT ON `exchange_rates_documents` BEGIN
  INSERT INTO `exchange_rates_documents_text` (rowid, `external_id`, `external_version`) VALUES (NEW.rowid, NEW.`external_id`, NEW.`external_version`);
END;
--> statement-breakpoint
CREATE TRIGGER `exchange_rates_documents_text_delete` AFTER DELETE ON `exchange_rates_documents` BEGIN
  INSERT INTO `exchange_rates_documents_text` (`exchange_rates_documents_text`, rowid, `external_id`, `external_version`) VALUES ('delete', OLD.rowid, OLD.`external_id`, OLD.`external_version`);
END;
--> statement-breakpoint
CREATE TRIGGER `exchange_rates_documents_text_update` AFTER UPDATE OF `external_id`, `external_version` ON `exchange_rates_documents` BEGIN
  INSERT INTO `exchange_rates_documents_text` (`exchange_rates_documents_text`, rowid, `external_id`, `external_version`) VALUES ('delete', OLD.rowid, OLD.`external_id`, OLD.`external_version`);
  INSERT INTO `exchange_rates_documents_text` (rowid, `external_id`, `external_version`) VALUES (NEW.rowid, NEW.`external_id`, NEW.`external_version`);
END;
--> statement-breakpoint
INSERT INTO `exchange_rates_documents_text` (`exchange_rates_documents_text`) VALUES ('rebuild');
