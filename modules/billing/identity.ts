import { eq } from 'drizzle-orm'
import { logActivity } from '../activity'
import { type AsaasClient, AsaasError } from '../asaas'
import { MINUTE } from '../core'
import { type AppContext, writeTransaction } from '../core/server'
import { notifyUsers } from '../messaging'
import { findRepresentativeByCnpj } from '../resellers'
import { VENDOR_ACCOUNT } from './model'
import { asaasIdentities } from './schema'

type Ctx = Pick<AppContext, 'db' | 'clock' | 'log'>

/** A walletId read this recently is not asked again (each question costs the account's quota). */
const FRESH_MS = 10 * MINUTE

/**
 * The walletId of the account behind a key: read from Asaas at most every 10 minutes (or now, with `fresh`), and
 * remembered in asaas_identities. Null when Asaas would not say (an old key without that permission, a failure):
 * the portal then goes by what the account's 404s say (see trustRemoval).
 */
export async function accountWallet(ctx: Ctx, accountId: string, client: AsaasClient, fresh = false): Promise<string | null> {
	const row = (await ctx.db.select().from(asaasIdentities).where(eq(asaasIdentities.account, accountId)))[0]
	const now = ctx.clock.now()
	if (row?.wallet_id && !fresh && now.getTime() - Date.parse(row.checked_at) < FRESH_MS) return row.wallet_id
	let wallet: string | null
	try {
		wallet = await client.getWalletId()
	} catch (error) {
		ctx.log('asaas.wallet_unknown', { account: accountId, message: error instanceof AsaasError ? error.message : String(error) })
		return row?.wallet_id ?? null
	}
	if (wallet) {
		const set = { wallet_id: wallet, checked_at: now.toISOString() }
		await writeTransaction(ctx.db, (tx) =>
			tx
				.insert(asaasIdentities)
				.values({ account: accountId, status: 'ok', ...set })
				.onConflictDoUpdate({ target: asaasIdentities.account, set })
		)
	}
	return wallet
}

const accountName = async (ctx: Ctx, accountId: string) =>
	accountId === VENDOR_ACCOUNT ? 'conta do fornecedor' : ((await findRepresentativeByCnpj(ctx.db, accountId))?.nome ?? accountId)

/**
 * Records that an account's key no longer opens the account its charges were made on (or that the account knows
 * none of them), and warns the administradores and the representative once, when the state begins.
 */
async function warnForeignAccount(ctx: Ctx, accountId: string, status: 'mudou' | 'desconhecida') {
	const nome = await accountName(ctx, accountId)
	const message =
		status === 'mudou'
			? `A chave do Asaas de ${nome} abre outra conta do Asaas que não a dos carnês e cobranças já emitidos. Nada foi cancelado: confira a chave em Configurações Financeiras (ou Admin Financeiro) e volte a chave anterior se ela foi trocada por engano.`
			: `A conta do Asaas de ${nome} responde "não encontrado" para os clientes e cobranças já emitidos: a chave pode ser de outra conta. Nada foi cancelado: confira a chave.`
	const now = ctx.clock.now().toISOString()
	await writeTransaction(ctx.db, async (tx) => {
		const row = (await tx.select().from(asaasIdentities).where(eq(asaasIdentities.account, accountId)))[0]
		if (row?.status === status) return
		const set = { status, message, checked_at: now }
		await tx
			.insert(asaasIdentities)
			.values({ account: accountId, wallet_id: row?.wallet_id ?? null, ...set })
			.onConflictDoUpdate({ target: asaasIdentities.account, set })
		const representanteCnpj = accountId === VENDOR_ACCOUNT ? null : accountId
		await logActivity(
			tx,
			ctx.clock,
			'billing.asaas-account-mismatch',
			{ conta: nome, situacao: status },
			{ actorName: 'Asaas', representanteCnpj }
		)
		await notifyUsers(tx, ctx.clock, { administradores: true, representanteCnpj }, 'Conta do Asaas trocada?', message, 'warning')
	})
	ctx.log('asaas.account_mismatch', { account: accountId, status })
}

/** The account answers again for what it made: the warning ends. */
async function clearWarning(ctx: Ctx, accountId: string) {
	await writeTransaction(ctx.db, (tx) =>
		tx
			.update(asaasIdentities)
			.set({ status: 'ok', message: null, checked_at: ctx.clock.now().toISOString() })
			.where(eq(asaasIdentities.account, accountId))
	)
}

/**
 * Whether a 404 from an account about a charge or plan made on `madeOn` (its walletId then, or null) may be read as a
 * deletion. Not when the key now opens another account, and not when the account does not know the charge's
 * customer either (a key of another account, whose walletId Asaas would not tell): then the administrador and the
 * representative are warned and nothing is cancelled.
 */
export async function trustRemoval(
	ctx: Ctx,
	accountId: string,
	client: AsaasClient,
	madeOn: { wallet: string | null; customerId: string | null }
): Promise<boolean> {
	const current = await accountWallet(ctx, accountId, client, true)
	if (madeOn.wallet && current && madeOn.wallet !== current) {
		await warnForeignAccount(ctx, accountId, 'mudou')
		return false
	}
	if (!(madeOn.wallet && current) && madeOn.customerId) {
		try {
			await client.getCustomer(madeOn.customerId)
		} catch (error) {
			if (error instanceof AsaasError && error.upstreamStatus === 404) {
				await warnForeignAccount(ctx, accountId, 'desconhecida')
				return false
			}
			throw error
		}
	}
	await clearWarning(ctx, accountId)
	return true
}

/** The warning of an account, for the financial screens; null while all is well. */
export async function accountWarning(ctx: Pick<AppContext, 'db'>, accountId: string): Promise<string | null> {
	const row = (await ctx.db.select().from(asaasIdentities).where(eq(asaasIdentities.account, accountId)))[0]
	return row && row.status !== 'ok' ? row.message : null
}
