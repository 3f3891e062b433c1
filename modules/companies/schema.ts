import { sql } from 'drizzle-orm'
import { index, integer, table, text } from '../../db/columns'
import { addressColumns, yesNoFlag } from '../core/schema'
import { representatives } from '../resellers/schema'
import { SYSTEM_CATALOGUE, UNBLOCKED_SQL, perFlag } from './systems'

/** A client company and its licence. Block flags: S = blocked, N = active, one per system. */
export const companies = table(
	'companies',
	{
		codigo: integer().primaryKey({ autoIncrement: true }),
		razao: text().notNull(),
		cnpj: text().notNull().unique(),
		cnpj_representante: text()
			.notNull()
			.references(() => representatives.cnpj),
		...addressColumns(),
		email: text(),
		link: text(),
		nterminais: integer().notNull().default(1),
		terminal_count: integer().notNull().default(0),
		ativarapi: yesNoFlag(),
		evo_instancia: text(),
		serial: text().notNull().unique(),
		on_line: yesNoFlag(),
		validade_certificado: text(),
		validade_licenca: text(),
		valor_mensal_centavos: integer().notNull().default(0),
		dia_venc: integer(),
		data: text().notNull(),
		data_ultima_utilizacao: text(),
		hora_ultima_utilizacao: text(),
		obs: text(),
		exibir_aviso: yesNoFlag(),
		aviso_titulo: text(),
		avisos: text(),
		manutencao: yesNoFlag(),
		liberacao_confianca_data: text(),
		liberacao_confianca_expira: text(),
		...perFlag(yesNoFlag),
		/**
		 * The block flags (comma-separated column names) the reminder schedule set for non-payment (issue 37); null when it
		 * blocked nothing. A person changing the flags makes the block theirs (null again): a payment lifts only these.
		 */
		bloqueio_inadimplencia: text()
	},
	(t) => [
		index('companies_rep_idx').on(t.cnpj_representante),
		index('companies_validade_idx').on(t.validade_licenca),
		index('companies_razao_idx').on(t.razao),
		// The list's other sort columns (each index ends in the rowid, the code: the tie-break of the order).
		index('companies_certificado_idx').on(t.validade_certificado),
		index('companies_terminal_count_idx').on(t.terminal_count),
		// Dashboard figures (modules/reports): active = unblocked in every system with a licence from today on,
		// and the blocked count of each system, read from small partial indexes instead of every company row.
		index('companies_unblocked_idx').on(t.validade_licenca, t.cnpj_representante).where(sql.raw(UNBLOCKED_SQL)),
		...SYSTEM_CATALOGUE.map((s) =>
			index(`companies_blocked_${s.key}_idx`)
				.on(t.cnpj_representante)
				.where(sql.raw(`${s.flag} = 'S'`))
		)
	]
)
