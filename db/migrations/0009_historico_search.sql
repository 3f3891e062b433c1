-- Trigram full-text index over the payment history's description and Asaas ids, so the history search finds any
-- substring of 3+ characters without scanning every event. Kept in step by triggers (events are only inserted).
CREATE VIRTUAL TABLE `historico_pagamentos_fts` USING fts5(descricao, boleto_id, asaas_evento_id, content='historico_pagamentos', content_rowid='id', tokenize='trigram remove_diacritics 1');
--> statement-breakpoint
INSERT INTO `historico_pagamentos_fts`(rowid, descricao, boleto_id, asaas_evento_id) SELECT id, coalesce(descricao, ''), boleto_id, coalesce(asaas_evento_id, '') FROM `historico_pagamentos`;
--> statement-breakpoint
CREATE TRIGGER `historico_pagamentos_fts_insert` AFTER INSERT ON `historico_pagamentos` BEGIN
	INSERT INTO `historico_pagamentos_fts`(rowid, descricao, boleto_id, asaas_evento_id) VALUES (new.id, coalesce(new.descricao, ''), new.boleto_id, coalesce(new.asaas_evento_id, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `historico_pagamentos_fts_delete` AFTER DELETE ON `historico_pagamentos` BEGIN
	INSERT INTO `historico_pagamentos_fts`(`historico_pagamentos_fts`, rowid, descricao, boleto_id, asaas_evento_id) VALUES ('delete', old.id, coalesce(old.descricao, ''), old.boleto_id, coalesce(old.asaas_evento_id, ''));
END;
--> statement-breakpoint
CREATE TRIGGER `historico_pagamentos_fts_update` AFTER UPDATE OF descricao, boleto_id, asaas_evento_id ON `historico_pagamentos` BEGIN
	INSERT INTO `historico_pagamentos_fts`(`historico_pagamentos_fts`, rowid, descricao, boleto_id, asaas_evento_id) VALUES ('delete', old.id, coalesce(old.descricao, ''), old.boleto_id, coalesce(old.asaas_evento_id, ''));
	INSERT INTO `historico_pagamentos_fts`(rowid, descricao, boleto_id, asaas_evento_id) VALUES (new.id, coalesce(new.descricao, ''), new.boleto_id, coalesce(new.asaas_evento_id, ''));
END;
