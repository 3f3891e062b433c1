import { describe, expect, test } from 'bun:test'
import { listWords } from './list-words'

describe('listWords', () => {
	test('says a list from its noun', () => {
		expect(listWords({ noun: { one: 'usuário', many: 'usuários' } })).toEqual({
			caption: 'Usuários',
			searchLabel: 'Buscar usuários',
			emptyTitle: 'Nenhum usuário encontrado',
			errorTitle: 'Erro ao carregar usuários'
		})
	})

	test('a feminine noun is said so in the empty state', () => {
		expect(listWords({ noun: { one: 'empresa', many: 'empresas', feminine: true } }).emptyTitle).toBe('Nenhuma empresa encontrada')
	})

	test("the page's own words win", () => {
		const words = listWords({
			noun: { one: 'lote', many: 'lotes' },
			caption: 'Meus Créditos',
			search: { label: 'Buscar lote' },
			empty: { title: 'Nenhum crédito encontrado' },
			error: { title: 'Erro ao carregar créditos' }
		})
		expect(words).toEqual({
			caption: 'Meus Créditos',
			searchLabel: 'Buscar lote',
			emptyTitle: 'Nenhum crédito encontrado',
			errorTitle: 'Erro ao carregar créditos'
		})
	})
})
