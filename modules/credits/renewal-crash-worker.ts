/**
 * Test helper (billing/renewals-crash.test.ts): a portal process on the database file `path`, whose Asaas is the stand-in at
 * `origin`. Rafael, with 100 credits, bills Padaria Pão Quente (licence until 2026-12-15) in two carnês of 12 parcels
 * that renew the licence; every parcel is paid at the stand-in and the reconciliation records them paid (the first
 * write: parcels and their renewals due), printing PAID. With `applying` it then applies the renewals (the second
 * write), printing APPLYING before. Then it waits: the test kills it with SIGKILL.
 */
import { eq } from 'drizzle-orm'
import { CNPJ, carneBody, testWorld } from '../../apps/server/testing'
import { carneParcelas, reconcileCarnes } from '../billing'
import { applyDueRenewals } from './renewals'

const [path, origin, moment] = process.argv.slice(2)
const w = await testWorld({ dbFile: path })
w.ctx.gateways.asaas = (url, init) => fetch(url.replace(/^https?:\/\/[^/]+/, origin), init)
const saved = await w.call('PUT', '/api/representantes/asaas-config', {
	cookie: w.cookies.rep,
	body: { ativar_api_asaas: 'S', asaas_api_key: '$aact_hmlg_000000000000000000000000000000renw', asaas_ambiente: 'sandbox' }
})
if (saved.status !== 200) throw new Error(`asaas-config: ${saved.status} ${saved.text}`)
const empresa = await w.company(CNPJ.rep, 'Padaria Pão Quente', { email: 'padaria@example.com', validade_licenca: '2026-12-15' })
await w.addCreditsVia(CNPJ.rep, 100)
for (let i = 0; i < 2; i++) {
	const res = await w.call('POST', '/api/carnes', {
		cookie: w.cookies.rep,
		body: carneBody(empresa.codigo, { numero_parcelas: 12, valor_total: 1200, renovar_licenca: true })
	})
	if (res.status !== 201) throw new Error(`carnê: ${res.status} ${res.text}`)
}
for (const parcel of await w.db.select().from(carneParcelas).where(eq(carneParcelas.empresa_codigo, empresa.codigo))) {
	const paid = await fetch(`${origin}/__standin/payments/${parcel.asaas_payment_id}/confirm`, { method: 'POST' })
	if (!paid.ok) throw new Error(`confirm: ${paid.status}`)
}
await reconcileCarnes(w.ctx, { all: true })
console.log('PAID')
if (moment === 'applying') {
	console.log('APPLYING')
	await applyDueRenewals(w.ctx)
	console.log('APPLIED')
}
// Keeps the process (and its database connection) alive until it is killed.
setInterval(() => {}, 1000)
