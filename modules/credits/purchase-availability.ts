import { VENDOR_ACCOUNT, asaasAccount, webhookState } from '../billing'
import type { AppContext } from '../core/server'
import type { AutoPurchaseAvailability } from './model'
import { PURCHASE_MESSAGES } from './purchases'

const DELAYED =
	'O aviso automático de pagamento do Asaas não está chegando ao portal: a compra funciona, mas os créditos podem levar alguns minutos para entrar depois do pagamento.'

/** GET /api/credits/auto-purchase/status: what the Autocompra screen says before anyone fills its form. */
export async function autoPurchaseAvailability(ctx: Pick<AppContext, 'db' | 'secrets' | 'config'>): Promise<AutoPurchaseAvailability> {
	if (!(await asaasAccount(ctx.db, ctx.secrets, VENDOR_ACCOUNT))?.active) {
		return { situacao: 'indisponivel', mensagem: PURCHASE_MESSAGES.notConfigured }
	}
	const webhook = await webhookState(ctx, VENDOR_ACCOUNT)
	if (webhook.status !== 'ativo' || webhook.conta_aviso) return { situacao: 'atrasado', mensagem: DELAYED }
	return { situacao: 'ativo', mensagem: null }
}
