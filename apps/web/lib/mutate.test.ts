import { afterEach, describe, expect, it, mock } from 'bun:test'
import { $toast, dismissToast } from '../stores/toast'
import { mutate } from './mutate'

const realFetch = globalThis.fetch
afterEach(() => {
	globalThis.fetch = realFetch
	dismissToast()
})

const refuse = (status: number, body: object) => {
	globalThis.fetch = mock(
		async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
	) as unknown as typeof fetch
}

const body = { razao: 'Padaria', cnpj: '11.222.333/0001-81', nterminais: 1 } as never

describe('mutate’s field refusals (issue 34, point 18)', () => {
	it('puts a refusal whose code names a field beside that field, with no toast', async () => {
		refuse(409, { message: 'Já existe uma empresa cadastrada com este CNPJ.', code: 'DUPLICATE_CNPJ' })
		const shown: [string, string][] = []
		const result = await mutate(
			'POST /api/companies',
			{ body },
			{
				success: { title: 'Empresa criada' },
				errorTitle: 'Erro ao criar empresa',
				fieldErrors: { codes: { DUPLICATE_CNPJ: 'cnpj' }, show: (field, message) => shown.push([field, message]) }
			}
		)
		expect(result).toBeNull()
		expect(shown).toEqual([['cnpj', 'Já existe uma empresa cadastrada com este CNPJ.']])
		expect($toast.get()).toBeNull()
	})

	it('keeps any other refusal a toast', async () => {
		refuse(422, { message: 'Outra regra.', code: 'BUSINESS_RULE' })
		const shown: string[] = []
		await mutate(
			'POST /api/companies',
			{ body },
			{
				success: { title: 'Empresa criada' },
				errorTitle: 'Erro ao criar empresa',
				fieldErrors: { codes: { DUPLICATE_CNPJ: 'cnpj' }, show: (field) => shown.push(field) }
			}
		)
		expect(shown).toEqual([])
		expect($toast.get()).toMatchObject({ title: 'Erro ao criar empresa', description: 'Outra regra.', variant: 'destructive' })
	})
})
