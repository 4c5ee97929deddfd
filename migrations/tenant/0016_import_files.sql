ALTER TABLE `import_data_infos` ADD `file_format` text;--> statement-breakpoint
ALTER TABLE `import_data_infos` ADD `import_mode` text;--> statement-breakpoint
ALTER TABLE `import_data_infos` ADD `dry_run` integer;--> statement-breakpoint
ALTER TABLE `import_data_infos` ADD `fail_on_errors` integer;--> statement-breakpoint
ALTER TABLE `import_data_infos` ADD `rows_read` integer;--> statement-breakpoint
ALTER TABLE `import_data_infos` ADD `rows_created` integer;--> statement-breakpoint
ALTER TABLE `import_data_infos` ADD `rows_updated` integer;--> statement-breakpoint
ALTER TABLE `import_data_infos` ADD `rows_failed` integer;