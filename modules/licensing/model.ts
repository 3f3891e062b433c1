import { cnpjField, contract, withoutForbiddenCharacters, z } from '../core'
import { SYSTEMS } from '../companies/model'
import { macField } from '../terminals/model'

/** What a desktop system sends to ask whether it may run. */
export const LicenceCheckBody = z.object({
	cnpj: cnpjField,
	chave: z.string({ error: 'chave é obrigatória.' }).min(1, 'chave é obrigatória.').max(200, 'no máximo 200 caracteres.'),
	sistema: z.enum(SYSTEMS, { error: `sistema deve ser um de: ${SYSTEMS.join(', ')}.` }),
	mac: macField,
	nome_computador: z
		.string()
		.max(100)
		.optional()
		.transform((v) => (v ? withoutForbiddenCharacters(v).trim() : '') || null),
	versao: z
		.string()
		.max(50)
		.optional()
		.transform((v) => (v === undefined ? v : withoutForbiddenCharacters(v))),
	nonce: z.string().max(128, 'no máximo 128 caracteres.').optional()
})
export type LicenceCheckBody = z.infer<typeof LicenceCheckBody>

export const LICENCE_STATUSES = [
	'ativa',
	'bloqueada',
	'expirada',
	'liberada_confianca',
	'manutencao',
	'terminal_excedido',
	'chave_invalida'
] as const
export type LicenceStatus = (typeof LICENCE_STATUSES)[number]

const LicenceDates = z.object({
	validade: z.string().nullable(),
	dias_restantes: z.number().nullable(),
	certificado_validade: z.string().nullable(),
	certificado_dias_restantes: z.number().nullable()
})

/**
 * The answer to a licence check (always HTTP 200). A `chave_invalida` answer carries only servidor_hora, nonce,
 * sistema, status, permitido and mensagem: it speaks for no company, so it has no token.
 */
export const LicenceAnswer = z.object({
	servidor_hora: z.string(),
	nonce: z.string().nullable(),
	sistema: z.enum(SYSTEMS),
	status: z.enum(LICENCE_STATUSES),
	permitido: z.boolean(),
	mensagem: z.string(),
	/** Only when `bloqueada`: blocked by the reminder schedule for an overdue parcel (lifted by its payment), or by hand. */
	motivo_bloqueio: z.enum(['falta_de_pagamento', 'manual']).optional(),
	empresa: z.object({ razao: z.string(), cnpj: z.string() }).optional(),
	licenca: LicenceDates.optional(),
	liberacao_confianca_expira: z.string().nullable().optional(),
	terminal: z.object({ registrado: z.boolean(), usados: z.number(), permitidos: z.number() }).nullable().optional(),
	aviso: z.object({ titulo: z.string().nullable(), texto: z.string() }).nullable().optional(),
	promo_url: z.string().nullable().optional(),
	token: z.string().optional().describe('JWS Ed25519 (EdDSA) com sub, sistema, status, permitido, licenca, mac, nonce, iat e exp'),
	token_expira: z.string().optional()
})

export const PublicKey = z.object({
	kid: z.string(),
	alg: z.literal('EdDSA'),
	crv: z.literal('Ed25519'),
	pem: z.string(),
	jwk: z.object({ kty: z.string(), crv: z.string(), x: z.string() })
})

export const checkLicenceRoute = contract({
	method: 'POST',
	path: '/api/licenca/verificar',
	body: LicenceCheckBody,
	response: LicenceAnswer,
	summary: 'Os sistemas perguntam se podem rodar: status da licença, terminal e um token assinado (Ed25519)'
})
export const publicKeyRoute = contract({
	method: 'GET',
	path: '/api/licenca/chave-publica',
	response: PublicKey,
	summary: 'A chave pública que verifica os tokens da verificação de licença'
})
