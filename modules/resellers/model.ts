import {
	MessageResponse,
	contract,
	csvExportContract,
	addressFields,
	addressView,
	cnpjField,
	flagField,
	optionalEmailField,
	phoneField,
	requiredText,
	searchField,
	sortFields,
	textField,
	urlField,
	z,
	deleteByIdContract,
	withMessage
} from '../core'
import { REPRESENTATIVE_SORTS } from './reads'

/** A manager chosen for a representative: a user id, or null/empty for none. */
const gerenteIdField = z
	.union([z.literal(''), z.null(), z.number({ error: 'Gerente inválido.' }).int('Gerente inválido.').positive('Gerente inválido.')], {
		error: 'Gerente inválido.'
	})
	.optional()
	.transform((v) => (v === '' || v == null ? null : v))

/** The fields of the representative form (1-core §3, §5) and of the API settings. */
const representativeFields = {
	nome: requiredText('Nome', 200),
	cnpj: cnpjField,
	...addressFields,
	whatsapp: phoneField,
	email: optionalEmailField,
	gerente_id: gerenteIdField,
	plink: urlField,
	ativar_api_asaas: flagField.optional(),
	evo_instancia: textField('Instância Evolution', 100)
}

export const RepresentativeCreate = z.object(representativeFields)
export type RepresentativeCreate = z.infer<typeof RepresentativeCreate>
/** What the representative form sends. */
export type RepresentativeInput = z.input<typeof RepresentativeCreate>

/** PUT sends the fields it changes; absent fields keep their value. */
export const RepresentativeUpdate = z.object(representativeFields).partial()
export type RepresentativeUpdate = z.infer<typeof RepresentativeUpdate>

/**
 * What a representative may change on their own record: 'Minhas Configurações de API'. Not their WhatsApp instance:
 * only an administrador binds one (representatives.bindInstance).
 */
export const API_SETTINGS_FIELDS = ['ativar_api_asaas', 'plink'] as const

/** Search by name, CNPJ or city, and the order. The answer is the whole scope (selection lists read it too). */
export const RepresentativeListQuery = z.object({ search: searchField, ...sortFields(REPRESENTATIVE_SORTS, 'nome') })
export type RepresentativeListQuery = z.infer<typeof RepresentativeListQuery>

const nullableText = z.string().nullable()

/** One representative as the API returns it (1-core §3 'Representative'). */
export const RepresentativeView = z.object({
	codigo: z.number(),
	nome: z.string(),
	cnpj: z.string(),
	...addressView,
	whatsapp: nullableText,
	email: nullableText,
	gerente_id: z.number().nullable(),
	gerente: z.object({ nome: z.string() }).nullable(),
	plink: nullableText,
	ativar_api_asaas: z.enum(['S', 'N']),
	evo_instancia: nullableText,
	nempresas: z.number(),
	data: z.string()
})
export type RepresentativeView = z.infer<typeof RepresentativeView>

export const ManagerView = z.object({ id: z.number(), nome: z.string() })
export type ManagerView = z.infer<typeof ManagerView>

export const PromoImageBody = z.object({
	imageBase64: z.string({ error: 'Envie a imagem em base64.' }).min(1, 'Por favor, selecione apenas arquivos de imagem')
})

export const listRepresentativesRoute = contract({
	method: 'GET',
	path: '/api/representatives',
	query: RepresentativeListQuery,
	response: z.array(RepresentativeView),
	summary: 'Representantes do escopo (o representante vê só o seu), com busca por nome, CNPJ ou cidade'
})
export const exportRepresentativesRoute = csvExportContract(
	'/api/representatives/export',
	RepresentativeListQuery,
	'Os representantes da lista filtrada, em CSV para planilhas'
)
export const currentRepresentativeRoute = contract({
	method: 'GET',
	path: '/api/representatives/current',
	response: RepresentativeView,
	summary: 'O registro de representante do usuário conectado'
})
export const createRepresentativeRoute = contract({
	method: 'POST',
	status: 201,
	path: '/api/representatives',
	body: RepresentativeCreate,
	response: RepresentativeView,
	summary: 'Cadastra um representante (o de um gerente fica com ele)'
})
export const updateRepresentativeRoute = contract({
	method: 'PUT',
	path: '/api/representatives/:id',
	body: RepresentativeUpdate,
	response: RepresentativeView,
	summary: 'Atualiza um representante; o próprio representante altera só as configurações de API'
})
export const deleteRepresentativeRoute = deleteByIdContract(
	'/api/representatives/:id',
	'Exclui um representante sem empresas, créditos nem usuário',
	'Representante excluído com sucesso.'
)
export const listManagersRoute = contract({
	method: 'GET',
	path: '/api/managers',
	response: z.array(ManagerView),
	summary: 'Gerentes ativos, para escolher o gerente de um representante'
})
export const savePromoImageRoute = contract({
	method: 'POST',
	path: '/api/representantes/promo-image',
	body: PromoImageBody,
	response: withMessage({ promo: z.string() }),
	summary: 'O representante envia sua imagem promocional (PNG, JPG ou GIF, até 5 MB, em base64)'
})
export const removePromoImageRoute = contract({
	method: 'DELETE',
	path: '/api/representantes/promo-image',
	response: MessageResponse,
	summary: 'O representante remove sua imagem promocional'
})
export const promoImageFileRoute = contract({
	method: 'GET',
	path: '/api/public/promo/:file',
	params: z.object({ file: z.string().max(100) }),
	response: z.instanceof(Blob).describe('a imagem (image/png, image/jpeg ou image/gif)'),
	summary: 'A imagem promocional de um representante, pública: os sistemas a mostram'
})
