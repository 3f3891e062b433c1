/**
 * bun run demo — the portal with billing and WhatsApp working, without any account: the local Asaas and Evolution
 * stand-ins (the same protocols as the real services), then the portal on a fresh demo database in DATA_DIR
 * (default ./.demo, emptied first), set up through its own API as the demo administrador would: the WhatsApp
 * gateway, the vendor's Asaas account and one for each demo representative, all pointing at the stand-ins (the
 * portal registers its webhooks there). Prints where each one is.
 */
import { mkdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo } from '../db/seed'
import { startAsaasStandin } from '../modules/asaas'
import { completeCnpj, formatCnpj } from '../modules/core'
import { startEvolutionStandin } from '../modules/evolution'

const port = Number(process.env.PORT ?? 3000)
const asaasPort = Number(process.env.DEMO_ASAAS_PORT ?? 3301)
const evolutionPort = Number(process.env.DEMO_EVOLUTION_PORT ?? 3302)
const dataDir = resolve(process.env.DATA_DIR ?? '.demo')
const portal = `http://localhost:${port}`
const EVOLUTION_KEY = 'evolution-demo'
const INSTANCE = 'k-licencas'
/** The demo representatives with an Asaas account of their own (sandbox keys the stand-in accepts). */
const REPRESENTATIVES_WITH_ASAAS = [DEMO_ACCOUNTS.representante.cnpj, completeCnpj('990000000004')]

rmSync(dataDir, { recursive: true, force: true })
mkdirSync(dataDir, { recursive: true })
const asaasStandin = startAsaasStandin({ port: asaasPort, hostname: '0.0.0.0' })
// Like a real account, a stand-in account has no Pix QR without a Pix key: the demo accounts have one.
for (const key of ['$aact_hmlg_demo_fornecedor', ...REPRESENTATIVES_WITH_ASAAS.map((cnpj) => `$aact_hmlg_demo_${cnpj}`)])
	asaasStandin.registerPixKey(key)
startEvolutionStandin({ port: evolutionPort, hostname: '0.0.0.0', apiKey: EVOLUTION_KEY, instances: [INSTANCE] })
const asaasUrl = `http://localhost:${asaasPort}/v3`
const evolutionUrl = `http://localhost:${evolutionPort}`

Object.assign(process.env, {
	DATA_DIR: dataDir,
	PORT: String(port),
	PUBLIC_URL: portal,
	ASAAS_SANDBOX_URL: asaasUrl
})
await seedDemo(join(dataDir, 'portal.sqlite'))
await import('../apps/server/main')

/** A call to the portal's API as a signed-in browser makes it. */
async function api(cookie: string, method: string, path: string, body?: unknown) {
	const res = await fetch(portal + path, {
		method,
		headers: { origin: portal, cookie, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body)
	})
	if (!res.ok) throw new Error(`demo: ${method} ${path} → ${res.status} ${await res.text()}`)
	return res.json()
}

async function signIn(cnpj: string) {
	const res = await fetch(`${portal}/api/auth/login`, {
		method: 'POST',
		headers: { origin: portal, 'content-type': 'application/json' },
		body: JSON.stringify({ cnpj, senha: DEMO_PASSWORD })
	})
	if (!res.ok) throw new Error(`demo: sign-in ${res.status} ${await res.text()}`)
	return (res.headers.get('set-cookie') ?? '').split(';')[0]
}

const admin = await signIn(DEMO_ACCOUNTS.administrador.cnpj)
await api(admin, 'POST', '/api/configuracoes/bulk', {
	configuracoes: [
		['evolution_api_url', evolutionUrl, 'URL da Evolution API'],
		['evolution_api_key', EVOLUTION_KEY, 'Chave da Evolution API'],
		['evolution_instance_name', INSTANCE, 'Nome da instância']
	].map(([chave, valor, descricao]) => ({ chave, valor, descricao, categoria: 'whatsapp' }))
})
// The WhatsApp bot on: enabling it points the local Evolution's webhook at the portal, so the chat page talks to it.
await api(admin, 'POST', '/api/configuracoes', { chave: 'bot_chave_pix', valor: '11.222.333/0001-81' })
await api(admin, 'POST', '/api/whatsapp/bot-enable')
await api(admin, 'PUT', '/api/admin/asaas-vendor', {
	asaas_api_key: '$aact_hmlg_demo_fornecedor',
	asaas_ambiente: 'sandbox',
	asaas_webhook_token: ''
})
for (const cnpj of REPRESENTATIVES_WITH_ASAAS) {
	await api(admin, 'PUT', `/api/admin/asaas-configs/${cnpj}`, {
		representante_cnpj: cnpj,
		ativar_api_asaas: true,
		asaas_api_key: `$aact_hmlg_demo_${cnpj}`,
		asaas_ambiente: 'sandbox',
		asaas_webhook_token: ''
	})
}
await fetch(`${portal}/api/auth/logout`, { method: 'POST', headers: { origin: portal, cookie: admin } })

console.log(`
Demonstração pronta (dados em ${dataDir}, apagados a cada início):
  Portal            ${portal}
  Asaas local       http://localhost:${asaasPort}/  (cobranças com o botão "pagar"; API em ${asaasUrl})
  WhatsApp local    ${evolutionUrl}/  (escreva como o celular de um cliente: o bot do portal responde)

Contas (senha de todas: ${DEMO_PASSWORD}):
${Object.entries(DEMO_ACCOUNTS)
	.map(([tipo, account]) => `  ${tipo.padEnd(14)} ${formatCnpj(account.cnpj)}  ${account.nome}`)
	.join('\n')}

O WhatsApp do portal, a conta Asaas do fornecedor e as de ${REPRESENTATIVES_WITH_ASAAS.map(formatCnpj).join(' e ')}
já apontam para os serviços locais. Ctrl+C encerra tudo.`)
