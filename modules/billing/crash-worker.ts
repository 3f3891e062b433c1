/**
 * Test helper (carnes-crash.test.ts): a portal process that issues one carnê against an Asaas stand-in at
 * `origin` on the database file `path`, printing READY when it starts the request and DONE <status> when it ends.
 * The test kills it with SIGKILL while a request of its hangs at the stand-in.
 */
import { CNPJ, testWorld } from '../../apps/server/testing'

const [path, origin] = process.argv.slice(2)
const w = await testWorld({ dbFile: path })
w.ctx.gateways.asaas = (url, init) => fetch(url.replace(/^https?:\/\/[^/]+/, origin), init)
const saved = await w.call('PUT', '/api/representantes/asaas-config', {
	cookie: w.cookies.rep,
	body: { ativar_api_asaas: 'S', asaas_api_key: '$aact_hmlg_000000000000000000000000000000crash', asaas_ambiente: 'sandbox' }
})
if (saved.status !== 200) throw new Error(`asaas-config: ${saved.status} ${saved.text}`)
const empresa = await w.company(CNPJ.rep, 'Padaria Pão Quente', { email: 'padaria@example.com' })
console.log('READY')
const res = await w.call('POST', '/api/carnes', {
	cookie: w.cookies.rep,
	body: {
		empresa_codigo: empresa.codigo,
		valor_total: 300,
		numero_parcelas: 3,
		data_primeiro_vencimento: '2026-12-10',
		tipo_cobranca: 'BOLETO'
	}
})
console.log(`DONE ${res.status}`)
process.exit(0)
