import { randomBytes, timingSafeEqual } from 'node:crypto'
import { and, asc, eq, isNotNull, ne } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { type AsaasClient, AsaasError, PAYMENT_EVENTS, createAsaasClient } from '../asaas'
import { users } from '../auth'
import { type AppContext, writeTransaction } from '../core/server'
import { findRepresentativeByCnpj } from '../resellers'
import { getSetting, openSetting } from '../settings'
import { accountWarning } from './identity'
import { countedFetch } from './usage'
import { type AsaasEnvironment, VENDOR_ACCOUNT, type WebhookState, webhookTokenProblem } from './model'
import { asaasAccounts, asaasWebhooks } from './schema'

/** An Asaas account the portal talks to, with its secrets open: only for the call that needs them. */
export interface AsaasAccount {
	/** 'fornecedor' or the representative's CNPJ: also the last segment of its webhook URL. */
	id: string
	active: boolean
	environment: AsaasEnvironment
	apiKey: string
	webhookToken: string
}

type Ctx = Pick<AppContext, 'db' | 'secrets' | 'config' | 'gateways' | 'clock' | 'log'>

/**
 * The one way to read an account: the vendor's from the settings app.asaas_*, a representative's from
 * asaas_accounts with its switch ativar_api_asaas. Null when it does not exist.
 */
export async function asaasAccount(db: DbOrTx, secrets: Ctx['secrets'], id: string): Promise<AsaasAccount | null> {
	if (id === VENDOR_ACCOUNT) {
		const apiKey = await openSetting(db, secrets, 'app.asaas_api_key')
		return {
			id,
			active: apiKey !== '',
			environment: (await getSetting(db, 'app.asaas_environment')) as AsaasEnvironment,
			apiKey,
			webhookToken: await openSetting(db, secrets, 'app.asaas_webhook_token')
		}
	}
	const rep = await findRepresentativeByCnpj(db, id)
	if (!rep) return null
	const row = (await db.select().from(asaasAccounts).where(eq(asaasAccounts.representante_cnpj, id)))[0]
	return {
		id,
		active: rep.ativar_api_asaas === 'S' && !!row?.api_key,
		environment: row?.ambiente ?? 'sandbox',
		apiKey: row?.api_key ? secrets.open(row.api_key) : '',
		webhookToken: row?.webhook_token ? secrets.open(row.webhook_token) : ''
	}
}

/** The Asaas client of an account: its environment's base URL, its key, the context's transport, each request counted. */
export function asaasClient(ctx: Ctx, account: Pick<AsaasAccount, 'id' | 'environment' | 'apiKey'>): AsaasClient {
	return createAsaasClient({
		baseUrl: ctx.config.asaasUrls[account.environment],
		apiKey: account.apiKey,
		fetch: countedFetch(ctx, account.id, ctx.gateways.asaas)
	})
}

/** A token Asaas accepts for a webhook: 40 random letters and digits, re-drawn until it passes Asaas' rules. */
export function newWebhookToken(): string {
	const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'
	for (;;) {
		const token = [...randomBytes(40)].map((b) => alphabet[b % alphabet.length]).join('')
		if (!webhookTokenProblem(token)) return token
	}
}

/** The token a delivery carried against the account's, in constant time. */
export function tokenMatches(given: string | null, expected: string): boolean {
	if (!given || !expected) return false
	const a = Buffer.from(given)
	const b = Buffer.from(expected)
	return a.length === b.length && timingSafeEqual(a, b)
}

/** Where Asaas delivers an account's events; null until PUBLIC_URL says where the portal is. */
export function webhookUrl(ctx: Pick<AppContext, 'config'>, account: string): string | null {
	return ctx.config.publicOrigin ? `${ctx.config.publicOrigin}/api/asaas/webhook/${account}` : null
}

export async function webhookState(ctx: Pick<AppContext, 'db' | 'config'>, account: string): Promise<WebhookState> {
	const row = (await ctx.db.select().from(asaasWebhooks).where(eq(asaasWebhooks.account, account)))[0]
	return {
		url: webhookUrl(ctx, account),
		status: row?.status ?? null,
		penalized: row?.penalized ?? 0,
		message: row?.message ?? null,
		checked_at: row?.checked_at ?? null,
		conta_aviso: await accountWarning(ctx, account)
	}
}

async function recordWebhook(ctx: Ctx, account: string, state: Omit<typeof asaasWebhooks.$inferInsert, 'account' | 'checked_at'>) {
	const row = { ...state, account, checked_at: ctx.clock.now().toISOString() }
	await writeTransaction(ctx.db, (tx) =>
		tx.insert(asaasWebhooks).values(row).onConflictDoUpdate({ target: asaasWebhooks.account, set: row })
	)
}

const WEBHOOK_NAME = 'K-Licenças'

/**
 * Where Asaas writes when the webhook fails: the account owner's e-mail (the representative's), else the first
 * active administrador's. Asaas' own form requires one though its SDK marks it optional (integrations.md,
 * corrections 2), so it is always sent.
 */
export async function webhookEmail(ctx: Pick<AppContext, 'db'>, accountId: string): Promise<string | null> {
	const own = accountId === VENDOR_ACCOUNT ? null : (await findRepresentativeByCnpj(ctx.db, accountId))?.email
	if (own) return own
	const admin = (
		await ctx.db
			.select({ email: users.email })
			.from(users)
			.where(and(eq(users.tipo, 'administrador'), eq(users.ativo, true), isNotNull(users.email), ne(users.email, '')))
			.orderBy(asc(users.id))
	)[0]
	return admin?.email ?? null
}

function describeQueue(hook: { interrupted: boolean; penalizedRequestsCount: number }) {
	if (hook.interrupted) {
		return {
			status: 'interrompido' as const,
			message: 'O Asaas interrompeu a fila de webhooks após falhas de entrega: os pagamentos não chegam ao portal até ela ser reativada.'
		}
	}
	if (hook.penalizedRequestsCount > 0) {
		return {
			status: 'penalizado' as const,
			message: `O Asaas registra ${hook.penalizedRequestsCount} entrega(s) com falha nesta fila: as entregas seguintes atrasam.`
		}
	}
	return { status: 'ativo' as const, message: null }
}

/**
 * Reads the account's webhooks at Asaas and makes the portal's one right: created when missing (with
 * `repair`), its URL, events and token as they should be. Records what it found; never throws: the
 * answer says what went wrong in pt-BR.
 */
export async function syncWebhook(ctx: Ctx, account: AsaasAccount, options: { repair: boolean }): Promise<WebhookState> {
	const url = webhookUrl(ctx, account.id)
	if (!url || !account.active) return webhookState(ctx, account.id)
	const client = asaasClient(ctx, account)
	try {
		const hooks = (await client.listWebhooks()).data
		const ours = hooks.find((h) => h.url === url) ?? hooks.find((h) => h.name === WEBHOOK_NAME)
		// Without any e-mail to give, the webhook is still tried: an account that requires one says so, and that is shown.
		const email = await webhookEmail(ctx, account.id)
		const wanted = {
			name: WEBHOOK_NAME,
			url,
			email: email ?? undefined,
			enabled: true,
			apiVersion: 3 as const,
			authToken: account.webhookToken,
			sendType: 'SEQUENTIALLY' as const,
			events: [...PAYMENT_EVENTS]
		}
		if (!ours) {
			if (!options.repair) {
				await recordWebhook(ctx, account.id, {
					webhook_id: null,
					status: 'ausente',
					penalized: 0,
					message: 'O webhook do portal não está registrado nesta conta.'
				})
			} else {
				const created = await client.createWebhook(wanted)
				await recordWebhook(ctx, account.id, { webhook_id: created.id, status: 'ativo', penalized: 0, message: null })
			}
			return webhookState(ctx, account.id)
		}
		const stale = ours.url !== url || !ours.enabled || !ours.hasAuthToken || PAYMENT_EVENTS.some((e) => !ours.events.includes(e))
		// The token cannot be read back: a save (repair) always writes it, the hourly check only fixes what it sees.
		const current = stale || options.repair ? await client.updateWebhook(ours.id, { ...wanted, interrupted: ours.interrupted }) : ours
		await recordWebhook(ctx, account.id, { webhook_id: current.id, penalized: current.penalizedRequestsCount, ...describeQueue(current) })
	} catch (error) {
		const noEmail =
			(await webhookEmail(ctx, account.id)) === null
				? ' Informe um e-mail no cadastro do representante ou de um administrador: o Asaas o pede para avisar de falhas no webhook.'
				: ''
		const message = `${error instanceof AsaasError ? error.message : 'Não foi possível consultar os webhooks no Asaas.'}${noEmail}`
		await recordWebhook(ctx, account.id, { status: 'erro', penalized: 0, message })
		ctx.log('asaas.webhook_sync_failed', { account: account.id, message })
	}
	return webhookState(ctx, account.id)
}

/** The banner's button: lets Asaas send again what it held back (reactivates the queue, clears penalties). */
export async function reactivateWebhook(ctx: Ctx, account: AsaasAccount): Promise<WebhookState> {
	const state = await webhookState(ctx, account.id)
	const row = (await ctx.db.select().from(asaasWebhooks).where(eq(asaasWebhooks.account, account.id)))[0]
	if (!row?.webhook_id || !account.active) return state
	const client = asaasClient(ctx, account)
	try {
		await client.updateWebhook(row.webhook_id, { interrupted: false })
		await client.removeBackoff(row.webhook_id)
	} catch (error) {
		ctx.log('asaas.webhook_reactivate_failed', { account: account.id, message: String((error as Error).message) })
	}
	return syncWebhook(ctx, account, { repair: false })
}
