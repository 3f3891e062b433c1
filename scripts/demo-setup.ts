/**
 * What `bun run demo` and `bun run demo:cluster` share: the local Asaas and Evolution stand-ins, and the portal set up
 * through its own API as the demo administrador would (the WhatsApp gateway and bot, the vendor's Asaas account and
 * one for each demo representative, all pointing at the stand-ins), and the lines that say where everything is.
 */
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../db/seed'
import { startAsaasStandin } from '../modules/asaas'
import { completeCnpj, formatCnpj } from '../modules/core'
import { startEvolutionStandin } from '../modules/evolution'

const EVOLUTION_KEY = 'evolution-demo'
const INSTANCE = 'k-licencas'
/** The demo representatives with an Asaas account of their own (sandbox keys the stand-in accepts). */
const REPRESENTATIVES_WITH_ASAAS = [DEMO_ACCOUNTS.representante.cnpj, completeCnpj('990000000004')]

export function startDemoStandins(ports: { asaas: number; evolution: number }) {
	const asaas = startAsaasStandin({ port: ports.asaas, hostname: '0.0.0.0' })
	// Like a real account, a stand-in account has no Pix QR without a Pix key: the demo accounts have one.
	for (const key of ['$aact_hmlg_demo_fornecedor', ...REPRESENTATIVES_WITH_ASAAS.map((cnpj) => `$aact_hmlg_demo_${cnpj}`)])
		asaas.registerPixKey(key)
	const evolution = startEvolutionStandin({ port: ports.evolution, hostname: '0.0.0.0', apiKey: EVOLUTION_KEY, instances: [INSTANCE] })
	return {
		asaas,
		evolution,
		asaasUrl: `http://localhost:${ports.asaas}/v3`,
		evolutionUrl: `http://localhost:${ports.evolution}`
	}
}

/** A call to the portal's API as a signed-in browser makes it. */
async function api(portal: string, cookie: string, method: string, path: string, body?: unknown) {
	const res = await fetch(portal + path, {
		method,
		headers: { origin: portal, cookie, 'content-type': 'application/json' },
		body: body === undefined ? undefined : JSON.stringify(body)
	})
	if (!res.ok) throw new Error(`demo: ${method} ${path} → ${res.status} ${await res.text()}`)
	return res.json()
}

async function signIn(portal: string, cnpj: string) {
	const res = await fetch(`${portal}/api/auth/login`, {
		method: 'POST',
		headers: { origin: portal, 'content-type': 'application/json' },
		body: JSON.stringify({ cnpj, senha: DEMO_PASSWORD })
	})
	if (!res.ok) throw new Error(`demo: sign-in ${res.status} ${await res.text()}`)
	return (res.headers.get('set-cookie') ?? '').split(';')[0]
}

/** Points the portal at `portal` to the stand-ins, as its administrador, through its API. */
export async function configureDemo(portal: string, evolutionUrl: string) {
	const admin = await signIn(portal, DEMO_ACCOUNTS.administrador.cnpj)
	await api(portal, admin, 'POST', '/api/configuracoes/bulk', {
		configuracoes: [
			['evolution_api_url', evolutionUrl, 'URL da Evolution API'],
			['evolution_api_key', EVOLUTION_KEY, 'Chave da Evolution API'],
			['evolution_instance_name', INSTANCE, 'Nome da instância']
		].map(([chave, valor, descricao]) => ({ chave, valor, descricao, categoria: 'whatsapp' }))
	})
	// The WhatsApp bot on: enabling it points the local Evolution's webhook at the portal, so the chat page talks to it.
	await api(portal, admin, 'POST', '/api/configuracoes', { chave: 'bot_chave_pix', valor: '11.222.333/0001-81' })
	await api(portal, admin, 'POST', '/api/whatsapp/bot-enable')
	await api(portal, admin, 'PUT', '/api/admin/asaas-vendor', {
		asaas_api_key: '$aact_hmlg_demo_fornecedor',
		asaas_ambiente: 'sandbox',
		asaas_webhook_token: ''
	})
	for (const cnpj of REPRESENTATIVES_WITH_ASAAS) {
		await api(portal, admin, 'PUT', `/api/admin/asaas-configs/${cnpj}`, {
			representante_cnpj: cnpj,
			ativar_api_asaas: true,
			asaas_api_key: `$aact_hmlg_demo_${cnpj}`,
			asaas_ambiente: 'sandbox',
			asaas_webhook_token: ''
		})
	}
	await fetch(`${portal}/api/auth/logout`, { method: 'POST', headers: { origin: portal, cookie: admin } })
}

/** Where the stand-ins are, the demo accounts, and what already points at the stand-ins. */
export function demoLines(urls: { asaasUrl: string; evolutionUrl: string }) {
	const asaasPage = urls.asaasUrl.replace(/\/v3$/, '/')
	return `  Asaas local       ${asaasPage}  (cobranças com o botão "pagar"; API em ${urls.asaasUrl})
  WhatsApp local    ${urls.evolutionUrl}/  (escreva como o celular de um cliente: o bot do portal responde)

Contas (senha de todas: ${DEMO_PASSWORD}):
${Object.entries(DEMO_ACCOUNTS)
	.map(([tipo, account]) => `  ${tipo.padEnd(14)} ${formatCnpj(account.cnpj)}  ${account.nome}`)
	.join('\n')}

O WhatsApp do portal, a conta Asaas do fornecedor e as de ${REPRESENTATIVES_WITH_ASAAS.map(formatCnpj).join(' e ')}
já apontam para os serviços locais. Ctrl+C encerra tudo.`
}
