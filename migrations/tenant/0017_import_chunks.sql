CREATE TABLE `import_chunks` (
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`import_id` text NOT NULL,
	`chunk_index` integer NOT NULL,
	`rows_read` integer NOT NULL,
	`rows_created` integer NOT NULL,
	`rows_updated` integer NOT NULL,
	`rows_failed` integer NOT NULL,
	`created_ids` text NOT NULL,
	`updated` text NOT NULL,
	`failures` text NOT NULL,
	`end_offset` integer NOT NULL,
	`end_row` integer NOT NULL,
	`undone_on` text,
	`created_on` text NOT NULL,
	PRIMARY KEY(`tenant_key`, `org_key`, `import_id`, `chunk_index`)
);
