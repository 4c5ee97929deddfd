ALTER TABLE `import_chunks` ADD `undo_outcome` text;--> statement-breakpoint
ALTER TABLE `import_data_infos` ADD `undo_state` integer;--> statement-breakpoint
ALTER TABLE `import_data_infos` ADD `rows_undone` integer;--> statement-breakpoint
ALTER TABLE `import_data_infos` ADD `revert_message_type` integer;--> statement-breakpoint
ALTER TABLE `import_data_infos` ADD `revert_message` text;