import { addressFields, cnpjField, flagField, optionalEmailField, phoneField, requiredText, textField, urlField, z } from '../core'

/** A manager chosen for a representative: a user id, or null/empty for none. */
const gerenteIdField = z
	.union([z.literal(''), z.null(), z.number({ error: 'Gerente inválido.' }).int('Gerente inválido.').positive('Gerente inválido.')])
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

/** PUT sends the fields it changes; absent fields keep their value. */
export const RepresentativeUpdate = z.object(representativeFields).partial()
export type RepresentativeUpdate = z.infer<typeof RepresentativeUpdate>

/** What a representative may change on their own record: 'Minhas Configurações de API'. */
export const API_SETTINGS_FIELDS = ['ativar_api_asaas', 'plink', 'evo_instancia'] as const

export const RepresentativeListQuery = z.object({
	search: z.string().max(100, 'A busca aceita no máximo 100 caracteres.').optional().transform((v) => v?.trim() ?? '')
})
export type RepresentativeListQuery = z.infer<typeof RepresentativeListQuery>

/** One representative as the API returns it (1-core §3 'Representative'). */
export interface RepresentativeView {
	codigo: number
	nome: string
	cnpj: string
	endereco: string | null
	bairro: string | null
	cidade: string | null
	uf: string | null
	cep: string | null
	fone: string | null
	whatsapp: string | null
	email: string | null
	gerente_id: number | null
	gerente: { nome: string } | null
	plink: string | null
	ativar_api_asaas: 'S' | 'N'
	evo_instancia: string | null
	nempresas: number
	data: string
}

export interface ManagerView {
	id: number
	nome: string
}
