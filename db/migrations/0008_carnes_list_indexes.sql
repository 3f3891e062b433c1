DROP INDEX `carne_parcelas_status_idx`;--> statement-breakpoint
DROP INDEX `carne_parcelas_rep_idx`;--> statement-breakpoint
CREATE INDEX `carne_parcelas_status_idx` ON `carne_parcelas` (`status`,`vencimento`,`valor_centavos`);--> statement-breakpoint
CREATE INDEX `carne_parcelas_rep_idx` ON `carne_parcelas` (`representante_cnpj`,`vencimento`,`status`,`valor_centavos`);--> statement-breakpoint
DROP INDEX `historico_pagamentos_rep_idx`;--> statement-breakpoint
DROP INDEX `historico_pagamentos_tipo_idx`;--> statement-breakpoint
CREATE INDEX `historico_pagamentos_rep_idx` ON `historico_pagamentos` (`representante_cnpj`,`data_evento`,`tipo_evento`,`valor_centavos`);--> statement-breakpoint
CREATE INDEX `historico_pagamentos_tipo_idx` ON `historico_pagamentos` (`tipo_evento`,`data_evento`,`valor_centavos`);