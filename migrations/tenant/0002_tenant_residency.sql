CREATE TABLE `tenant_residency` (
	`tenant_key` text NOT NULL,
	`org_key` text NOT NULL,
	`state` text NOT NULL,
	`changed_on` text NOT NULL,
	PRIMARY KEY(`tenant_key`, `org_key`),
	CONSTRAINT "tenant_residency_state_check" CHECK("tenant_residency"."state" IN ('active', 'moving', 'moved', 'incoming'))
);
