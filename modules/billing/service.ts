import { count, eq, sql } from 'drizzle-orm'
import { logActivity } from '../activity'
import { AsaasError, rehearseAsaas } from '../asaas'
import type { SessionUser } from '../auth'
import { type AppContext, badRequest, maskSealed, notFound, unprocessable, writeTransaction } from '../core/server'
import { findRepresentativeByCnpj, representatives, setAsaasActivation } from '../resellers'
import { getSetting, saveSettings } from '../settings'
import { asaasAccount, asaasClient, newWebhookToken, syncWebhook, webhookEmail, webhookState, webhookUrl } from './accounts'
import {
	type AdminAsaasConfigView,
	type AsaasConfigView,
	type AsaasRehearsal,
	type AsaasEnvironment,
	type FinancialStats,
	MESSAGES,
	type TestResult,
	VENDOR_ACCOUNT,
	type VendorAsaasConfigView,
	type WebhookState
} from './model'
import { asaasAccounts } from './schema'
import { accountUsage, countedFetch } from './usage'

type Ctx = AppContext
type Actor = Pick<SessionUser, 'id' | 'nome'>

/** What a save form sends: a blank secret clears it, a masked one keeps the saved value. */
interface AccountInput {
	active: boolean
	apiKey: string
	environment: AsaasEnvironment
	webhookToken: string
}

const isMasked = (value: string) => value.includes('•')

/** The secret to store: the new one (sealed), the saved one when the form sent it back masked, or none. */
function nextSecret(ctx: Ctx, typed: string, saved: string | null): string | null {
	if (isMasked(typed)) return saved
	return typed ? ctx.secrets.seal(typed) : null
}

/** The representative's webhook token in clear, asked for on purpose (a reveal button), to be typed into Asaas by hand. */
export async function ownWebhookToken(ctx: Ctx, cnpj: string): Promise<{ token: string | null }> {
	const row = (await ctx.db.select().from(asaasAccounts).where(eq(asaasAccounts.representante_cnpj, cnpj)))[0]
	return { token: row?.webhook_token ? ctx.secrets.open(row.webhook_token) : null }
}

async function representativeView(ctx: Ctx, cnpj: string): Promise<AsaasConfigView> {
	const rep = await findRepresentativeByCnpj(ctx.db, cnpj)
	const row = (await ctx.db.select().from(asaasAccounts).where(eq(asaasAccounts.representante_cnpj, cnpj)))[0]
	const on = rep?.ativar_api_asaas === 'S'
	return {
		ativar_api_asaas: on ? 'S' : 'N',
		asaas_api_key: maskSealed(row?.api_key),
		asaas_ambiente: row?.ambiente ?? 'sandbox',
		asaas_webhook_token: maskSealed(row?.webhook_token),
		configurado: on && !!row?.api_key,
		webhook: await webhookState(ctx, cnpj),
		uso: await accountUsage(ctx, cnpj)
	}
}

/** Registers (or fixes) the portal's webhook on an account after a save; the save itself does not depend on it. */
async function afterSave(ctx: Ctx, accountId: string): Promise<string> {
	const account = await asaasAccount(ctx.db, ctx.secrets, accountId)
	if (!account?.active) return ''
	if (!webhookUrl(ctx, accountId))
		return ' Defina PUBLIC_URL para o portal registrar o webhook; até lá, configure-o à mão (Guia de Configuração).'
	const state = await syncWebhook(ctx, account, { repair: true })
	return state.status === 'ativo' ? ' Webhook do portal registrado no Asaas.' : ` Webhook: ${state.message ?? 'não registrado.'}`
}

/** Saves a representative's account: the switch, the environment, the key and the webhook token. */
async function saveRepresentativeAccount(ctx: Ctx, actor: Actor, cnpj: string, input: AccountInput): Promise<string> {
	const rep = await findRepresentativeByCnpj(ctx.db, cnpj)
	if (!rep) throw notFound('Representante não encontrado.')
	await writeTransaction(ctx.db, async (tx) => {
		const saved = (await tx.select().from(asaasAccounts).where(eq(asaasAccounts.representante_cnpj, cnpj)))[0]
		const apiKey = nextSecret(ctx, input.apiKey, saved?.api_key ?? null)
		if (input.active && !apiKey) throw badRequest(MESSAGES.keyRequired)
		// Every active account gets a token: without one a delivery could not be told from a forgery.
		const webhookToken =
			nextSecret(ctx, input.webhookToken, saved?.webhook_token ?? null) ?? (apiKey ? ctx.secrets.seal(newWebhookToken()) : null)
		const row = { ambiente: input.environment, api_key: apiKey, webhook_token: webhookToken, updated_at: ctx.clock.now().toISOString() }
		await tx
			.insert(asaasAccounts)
			.values({ representante_cnpj: cnpj, ...row })
			.onConflictDoUpdate({ target: asaasAccounts.representante_cnpj, set: row })
		await setAsaasActivation(tx, cnpj, input.active)
		await logActivity(
			tx,
			ctx.clock,
			'billing.asaas-account-saved',
			{ conta: rep.nome, ambiente: input.environment, ativa: input.active },
			{
				actor,
				entityId: cnpj,
				representanteCnpj: cnpj
			}
		)
	})
	return `Configurações salvas.${await afterSave(ctx, cnpj)}`
}

export async function ownConfig(ctx: Ctx, user: SessionUser): Promise<AsaasConfigView> {
	if (!(await findRepresentativeByCnpj(ctx.db, user.cnpj))) throw notFound('Nenhum representante cadastrado com o CNPJ deste usuário.')
	return representativeView(ctx, user.cnpj)
}

export async function saveOwnConfig(ctx: Ctx, user: SessionUser, input: AccountInput) {
	const message = await saveRepresentativeAccount(ctx, user, user.cnpj, input)
	return { message, config: await representativeView(ctx, user.cnpj) }
}

export async function adminConfigs(ctx: Ctx): Promise<AdminAsaasConfigView[]> {
	const rows = await ctx.db
		.select({ cnpj: asaasAccounts.representante_cnpj, nome: representatives.nome })
		.from(asaasAccounts)
		.innerJoin(representatives, eq(representatives.cnpj, asaasAccounts.representante_cnpj))
		.orderBy(representatives.nome)
	return Promise.all(rows.map(({ cnpj, nome }) => adminView(ctx, cnpj, nome)))
}

async function adminView(ctx: Ctx, cnpj: string, nome: string): Promise<AdminAsaasConfigView> {
	const { ativar_api_asaas, ...view } = await representativeView(ctx, cnpj)
	return { ...view, representante_cnpj: cnpj, representante_nome: nome, ativar_api_asaas: ativar_api_asaas === 'S' }
}

export async function saveAdminConfig(ctx: Ctx, actor: Actor, cnpj: string, bodyCnpj: string | undefined, input: AccountInput) {
	if (bodyCnpj && bodyCnpj !== cnpj) throw badRequest('O representante do formulário não é o do endereço.')
	const message = await saveRepresentativeAccount(ctx, actor, cnpj, input)
	return { message, config: await adminView(ctx, cnpj, (await findRepresentativeByCnpj(ctx.db, cnpj))!.nome) }
}

export async function vendorConfig(ctx: Ctx): Promise<VendorAsaasConfigView> {
	const key = await getSetting(ctx.db, 'app.asaas_api_key')
	return {
		asaas_api_key: maskSealed(key),
		asaas_ambiente: (await getSetting(ctx.db, 'app.asaas_environment')) as AsaasEnvironment,
		asaas_webhook_token: maskSealed(await getSetting(ctx.db, 'app.asaas_webhook_token')),
		configurado: !!key,
		webhook: await webhookState(ctx, VENDOR_ACCOUNT),
		uso: await accountUsage(ctx, VENDOR_ACCOUNT)
	}
}

export async function saveVendorConfig(ctx: Ctx, actor: Actor, input: Omit<AccountInput, 'active'>) {
	await writeTransaction(ctx.db, async (tx) => {
		// saveSettings keeps a secret sent back masked; a blank one clears it.
		const hasKey = isMasked(input.apiKey) ? !!(await getSetting(tx, 'app.asaas_api_key')) : !!input.apiKey
		const token = input.webhookToken || (hasKey ? newWebhookToken() : '')
		await saveSettings(tx, ctx.clock, ctx.secrets, [
			{ chave: 'app.asaas_api_key', valor: input.apiKey },
			{ chave: 'app.asaas_environment', valor: input.environment },
			{ chave: 'app.asaas_webhook_token', valor: token }
		])
		await logActivity(
			tx,
			ctx.clock,
			'billing.asaas-account-saved',
			{ conta: 'Fornecedor', ambiente: input.environment, ativa: hasKey },
			{ actor, entityId: VENDOR_ACCOUNT }
		)
	})
	const message = `Configurações salvas.${await afterSave(ctx, VENDOR_ACCOUNT)}`
	return { message, config: await vendorConfig(ctx) }
}

/** Proves the saved key works in its environment (a cheap authenticated GET) and tells the webhook's state. */
export async function testAccount(ctx: Ctx, accountId: string): Promise<TestResult> {
	const account = await asaasAccount(ctx.db, ctx.secrets, accountId)
	if (!account) throw notFound('Representante não encontrado.')
	if (!account.apiKey) return { success: false, message: MESSAGES.keyMissingForTest }
	const where = account.environment === 'production' ? 'produção' : 'sandbox'
	try {
		const hooks = (await asaasClient(ctx, account).listWebhooks()).data
		const url = webhookUrl(ctx, accountId)
		const ours = hooks.find((h) => h.url === url)
		const webhook: WebhookState =
			url && account.active ? await syncWebhook(ctx, account, { repair: false }) : await webhookState(ctx, accountId)
		const about = !url
			? 'Sem PUBLIC_URL o portal não registra o webhook sozinho.'
			: ours
				? ours.interrupted
					? 'O webhook do portal está com a fila interrompida.'
					: 'O webhook do portal está registrado.'
				: 'O webhook do portal ainda não está registrado nesta conta.'
		return { success: true, message: `Chave válida no ambiente ${where}. ${about}`, webhook }
	} catch (error) {
		if (error instanceof AsaasError) return { success: false, message: error.message }
		throw error
	}
}

/**
 * "Ensaio completo no sandbox" (Admin Financeiro): the check:asaas rehearsal with an account's saved key, for sandbox
 * accounts only (it creates and removes a customer's plan and trial webhooks).
 */
export async function rehearseAccount(ctx: Ctx, accountId: string): Promise<AsaasRehearsal> {
	const account = await asaasAccount(ctx.db, ctx.secrets, accountId)
	if (!account) throw notFound('Conta Asaas não encontrada.')
	if (!account.apiKey) throw unprocessable(MESSAGES.keyMissingForTest)
	if (account.environment !== 'sandbox')
		throw unprocessable('O ensaio completo só roda em contas de sandbox: ele cria e remove cobranças de teste.')
	const result = await rehearseAsaas({
		apiKey: account.apiKey,
		baseUrl: ctx.config.asaasUrls.sandbox,
		fetch: countedFetch(ctx, account.id, ctx.gateways.asaas),
		webhookUrl: webhookUrl(ctx, account.id) ?? undefined,
		email: (await webhookEmail(ctx, account.id)) ?? undefined,
		now: () => ctx.clock.now()
	})
	const failed = result.steps.filter((s) => s.result === 'failed').length
	const warned = result.steps.filter((s) => s.result === 'warning').length
	const verdict = result.ok
		? `Tudo certo: o portal funciona com esta conta${warned ? ` (${warned} aviso(s) a conferir)` : ''}.`
		: `${failed} passo(s) de que o portal depende falharam: veja cada um abaixo.`
	return { ...result, verdict }
}

/** The Admin Financeiro cards; the carnê figures count the carnês issued through the representatives' accounts. */
export async function financialStats(ctx: Ctx, carnes: { count: number; totalCentavos: number }): Promise<FinancialStats> {
	const total = (await ctx.db.select({ n: count() }).from(asaasAccounts))[0]?.n ?? 0
	const active =
		(
			await ctx.db
				.select({ n: count() })
				.from(asaasAccounts)
				.innerJoin(representatives, eq(representatives.cnpj, asaasAccounts.representante_cnpj))
				.where(sql`${representatives.ativar_api_asaas} = 'S' and ${asaasAccounts.api_key} is not null`)
		)[0]?.n ?? 0
	return {
		totalConfiguracoes: total,
		configuracoesAtivas: active,
		carnesGerados: carnes.count,
		valorTotalCarnes: carnes.totalCentavos / 100
	}
}
