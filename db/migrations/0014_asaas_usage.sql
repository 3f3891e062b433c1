CREATE TABLE `asaas_usage` (
	`account` text NOT NULL,
	`hora` text NOT NULL,
	`requisicoes` integer DEFAULT 0 NOT NULL,
	`restante` integer,
	PRIMARY KEY(`account`, `hora`)
);
