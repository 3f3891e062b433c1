import { describe, expect, it } from 'bun:test'
import { eq } from 'drizzle-orm'
import { billingWorld, carneBody, settleAsaas, saveGateway } from '../../apps/server/testing'
import { activities } from '../activity'
import { carneParcelas } from './schema'

/** One carnê, one name: the number people read, not Asaas' plan id (issue 34, point 8). */
describe('a carnê is called by its number everywhere', () => {
	it('the history, the activity log, the PDF’s file name and the WhatsApp messages say "Carnê nº N"', async () => {
		const { w, empresa } = await billingWorld({ webhookRepeats: 1 })
		const { carne } = (await w.call('POST', '/api/carnes', { cookie: w.cookies.rep, body: carneBody(empresa.codigo) })).json
		const name = `Carnê nº ${carne.id}`
		const [first] = (await w.db.select().from(carneParcelas).where(eq(carneParcelas.carne_id, carne.id))).sort(
			(a, b) => a.numero - b.numero
		)
		w.asaas.confirm(first.asaas_payment_id)
		await settleAsaas(w)
		const history = (await w.call('GET', '/api/historico-pagamentos', { cookie: w.cookies.rep })).json.eventos
		expect(history.map((e) => e.descricao)).toEqual([`Parcela 1/3 do ${name} paga (R$ 100,00)`])

		const pdf = await w.call('GET', `/api/carnes/${carne.id}/download-completo`, { cookie: w.cookies.rep })
		expect(pdf.headers.get('content-disposition')).toBe(
			`inline; filename="Carne n ${carne.id}.pdf"; filename*=UTF-8''${encodeURIComponent(`${name}.pdf`)}`
		)

		await saveGateway(w)
		const sent = await w.call('POST', `/api/carnes/${carne.id}/enviar-whatsapp`, {
			cookie: w.cookies.rep,
			body: { telefone: '5585999990001' }
		})
		expect(sent.status).toBe(200)
		expect(w.evolution.sent[0]).toMatchObject({ type: 'document', fileName: `${name}.pdf` })
		expect(w.evolution.sent[0].caption).toContain(`Segue o seu ${name}, com 3 parcelas de R$ 100,00 (total R$ 300,00)`)
		const second = (await w.db.select().from(carneParcelas).where(eq(carneParcelas.carne_id, carne.id))).find((p) => p.numero === 2)!
		const parcel = await w.call('POST', `/api/carnes/pagamentos/${second.id}/whatsapp`, {
			cookie: w.cookies.rep,
			body: { phone: '5585999990001' }
		})
		expect(parcel.status).toBe(200)
		expect(w.evolution.sent[1].text).toStartWith(`Olá, ${empresa.razao}! Segue a parcela 2/3 do seu ${name}.`)

		expect((await w.call('DELETE', `/api/carnes/${carne.id}`, { cookie: w.cookies.rep })).status).toBe(200)
		const lines = await w.db.select().from(activities)
		const cancelled = lines.find((a) => a.event === 'billing.carne-cancelled')
		expect(cancelled?.subtitle).toStartWith(`${name} · `)
		expect(lines.find((a) => a.event === 'billing.carne-sent')?.subtitle ?? '').toStartWith(`${name} · `)
	})
})
