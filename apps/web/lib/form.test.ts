import { describe, expect, it } from 'bun:test'
import { CompanyBody } from '../../../modules/companies/model'
import { fieldErrors } from './form'

describe('fieldErrors (issue 14, point 4)', () => {
	it('answers every invalid field at once, each with its own sentence, keyed by field', () => {
		const errors = fieldErrors(CompanyBody, {
			razao: ' ',
			cnpj: '11.222.333/0001-00',
			email: 'nao-e-email',
			nterminais: 0,
			dia_venc: 40,
			valor_mensal: Number.NaN
		})
		expect(errors).toEqual({
			razao: 'Razão social é obrigatória.',
			cnpj: 'CNPJ inválido: verifique os dígitos.',
			email: 'E-mail inválido.',
			nterminais: 'A empresa deve permitir pelo menos 1 terminal.',
			dia_venc: 'Dia de vencimento entre 1 e 31.',
			valor_mensal: 'Valor deve ser um número.'
		})
		expect(fieldErrors(CompanyBody, { razao: 'Padaria', cnpj: '11.222.333/0001-81', nterminais: 1 })).toEqual({})
	})
})
