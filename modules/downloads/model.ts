import { contract, requiredText, z, deleteByIdContract } from '../core'

export const DownloadBody = z.object({
	titulo: requiredText('Título', 200),
	link: z
		.url({
			protocol: /^https?$/,
			error: (issue) =>
				issue.input === undefined || issue.input === ''
					? 'Link de download é obrigatório.'
					: 'Link inválido: use um endereço http(s) completo.'
		})
		.max(1000, 'Link muito longo.')
		.refine((v) => !/\s/.test(v), 'Link inválido: o endereço não pode ter espaços.'),
	ativo: z
		.union([z.literal(0), z.literal(1), z.boolean()], { error: 'Ativo: use 1 ou 0 (ou true/false).' })
		.default(1)
		.transform((v) => (v === true || v === 1 ? 1 : 0))
})
export type DownloadBody = z.infer<typeof DownloadBody>

export const Download = z.object({ id: z.number(), titulo: z.string(), link: z.string(), ativo: z.number(), data: z.string() })
export type Download = z.infer<typeof Download>

export const listDownloadsRoute = contract({
	method: 'GET',
	path: '/api/downloads',
	response: z.array(Download),
	summary: 'Downloads dos sistemas: todos para administradores, só os ativos para os demais'
})
export const createDownloadRoute = contract({
	method: 'POST',
	status: 201,
	path: '/api/downloads',
	body: DownloadBody,
	response: Download,
	summary: 'Cadastra um download'
})
export const updateDownloadRoute = contract({
	method: 'PUT',
	path: '/api/downloads/:id',
	body: DownloadBody,
	response: Download,
	summary: 'Atualiza um download'
})
export const deleteDownloadRoute = deleteByIdContract('/api/downloads/:id', 'Exclui um download', 'Download excluído.')
