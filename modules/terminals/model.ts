import {
	MessageResponse,
	contract,
	deleteByIdContract,
	csvExportContract,
	pageFields,
	searchField,
	sortFields,
	textField,
	z,
	pagedList,
	withMessage,
	figures
} from '../core'
import { TERMINAL_SORTS } from './reads'

/** MAC typed with or without separators; stored as 12 uppercase hex characters. */
const MAC_MESSAGE = 'Endereço MAC inválido: use 12 dígitos hexadecimais (ex.: 00:1A:2B:3C:4D:5E).'
/** Text made only of hex digits and MAC separators (: - . and spaces). */
export const MAC_TEXT = /^[0-9a-fA-F:.\- ]+$/
/** MAC text without its separators, in upper case. */
export const macDigits = (text: string) => text.replace(/[:.\- ]/g, '').toUpperCase()
export const macField = z
	.string({ error: 'Endereço MAC é obrigatório.' })
	// Separators are dropped; any other character makes the address invalid, never silently removed.
	.refine((v) => v.length <= 32 && MAC_TEXT.test(v.trim()), MAC_MESSAGE)
	.transform(macDigits)
	.refine((v) => /^[0-9A-F]{12}$/.test(v), MAC_MESSAGE)

export const TerminalBody = z.object({
	fk_empresa: z.number({ error: 'Empresa é obrigatória.' }).int().positive('Empresa é obrigatória.'),
	nome_computador: textField('Nome do computador', 100),
	mac: macField
})
export type TerminalBody = z.infer<typeof TerminalBody>

/** A terminal as the Terminais screen shows it (2-administration §3.4). */
export const Terminal = z.object({
	codigo: z.number(),
	fk_empresa: z.number(),
	nome_empresa: z.string(),
	nome_computador: z.string().nullable(),
	mac: z.string(),
	data: z.string(),
	empresa: z.object({ codigo: z.number(), razao: z.string(), nterminais: z.number(), terminal_count: z.number() })
})
export type Terminal = z.infer<typeof Terminal>

export const TerminalPage = pagedList('terminals', Terminal, {
	stats: figures('total', 'empresasComTerminais', 'totalEmpresas', 'hoje')
})
export type TerminalPage = z.infer<typeof TerminalPage>

/** The view of the list: search by computer, company or MAC, and the order (what the CSV export takes). */
export const TerminalView = z.object({ search: searchField, ...sortFields(TERMINAL_SORTS, 'empresa') })
export type TerminalView = z.infer<typeof TerminalView>
export const TerminalListQuery = TerminalView.extend(pageFields)
export type TerminalListQuery = z.infer<typeof TerminalListQuery>

export const listTerminalsRoute = contract({
	method: 'GET',
	path: '/api/terminals',
	query: TerminalListQuery,
	response: TerminalPage,
	summary: 'Terminais do escopo, paginados, com busca por computador, empresa ou MAC e os números dos cartões'
})
export const exportTerminalsRoute = csvExportContract(
	'/api/terminals/export',
	TerminalView,
	'Os terminais da lista filtrada, em CSV para planilhas, transmitido aos poucos'
)
export const createTerminalRoute = contract({
	method: 'POST',
	status: 201,
	path: '/api/terminals',
	body: TerminalBody,
	response: withMessage({ codigo: z.number() }),
	summary: 'Cadastra um terminal numa empresa, dentro do seu limite'
})
export const updateTerminalRoute = contract({
	method: 'PUT',
	path: '/api/terminals/:codigo',
	body: TerminalBody,
	response: MessageResponse,
	summary: 'Atualiza um terminal (pode mudar de empresa)'
})
export const deleteTerminalRoute = deleteByIdContract('/api/terminals/:codigo', 'Exclui um terminal', 'Terminal excluído.')
