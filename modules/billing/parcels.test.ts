import { describe, expect, it } from 'bun:test'
import { CNPJ, testWorld } from '../../apps/server/testing'
import { openParcelsOfCompany } from './index'
import { carneParcelas, carnes } from './schema'

describe('openParcelsOfCompany', () => {
	it('answers the pending and overdue parcels of the company’s active carnês, soonest due first', async () => {
		const w = await testWorld()
		const mine = await w.company(CNPJ.rep, 'Padaria Boa')
		const other = await w.company(CNPJ.rep, 'Outra Ltda')
		const now = w.clock.now().toISOString()
		const carne = async (empresa: number, status: 'ativo' | 'cancelado', ref: string) =>
			(
				await w.db
					.insert(carnes)
					.values({
						referencia: ref,
						empresa_codigo: empresa,
						representante_cnpj: CNPJ.rep,
						asaas_installment_id: `inst-${ref}`,
						asaas_customer_id: 'cus_1',
						valor_total_centavos: 30000,
						valor_parcela_centavos: 10000,
						numero_parcelas: 3,
						data_primeiro_vencimento: '2026-12-10',
						tipo_cobranca: 'BOLETO',
						status,
						created_at: now,
						updated_at: now
					})
					.returning()
			)[0]
		const parcel = async (c: { id: number; empresa_codigo: number }, numero: number, vencimento: string, status: string) =>
			await w.db.insert(carneParcelas).values({
				carne_id: c.id,
				empresa_codigo: c.empresa_codigo,
				representante_cnpj: CNPJ.rep,
				asaas_payment_id: `pay-${c.id}-${numero}`,
				numero,
				valor_centavos: 10000,
				vencimento,
				status,
				boleto_url: `https://asaas.test/b/${c.id}-${numero}`,
				linha_digitavel: numero === 3 ? '00190000090275928800021932978170187890000005000' : null,
				pix_copia_cola: numero === 3 ? '000201pix' : null,
				updated_at: now
			})
		const active = await carne(mine.codigo, 'ativo', 'a')
		await parcel(active, 1, '2026-10-10', 'RECEIVED')
		await parcel(active, 3, '2026-12-10', 'PENDING')
		await parcel(active, 2, '2026-11-10', 'OVERDUE')
		const cancelled = await carne(mine.codigo, 'cancelado', 'b')
		await parcel(cancelled, 1, '2026-09-01', 'PENDING')
		await parcel(await carne(other.codigo, 'ativo', 'c'), 1, '2026-09-01', 'PENDING')

		const open = await openParcelsOfCompany(w.db, mine.codigo)
		expect(open.map((p) => [p.numero, p.status, p.vencimento])).toEqual([
			[2, 'OVERDUE', '2026-11-10'],
			[3, 'PENDING', '2026-12-10']
		])
		expect(open[1]).toMatchObject({
			total: 3,
			valorCentavos: 10000,
			boletoUrl: `https://asaas.test/b/${active.id}-3`,
			identificationField: '00190000090275928800021932978170187890000005000',
			pixCopyPaste: '000201pix'
		})
		expect(await openParcelsOfCompany(w.db, 999_999)).toEqual([])
	})
})
