import { AlertTriangle, RefreshCw } from 'lucide-react'
import type { WebhookState } from '../../../../modules/billing/model'
import { usePending } from '../../lib/hooks'
import { mutate } from '../../lib/mutate'

/**
 * Shown on the financial screens when Asaas interrupted or penalised an account's webhook queue: payments made
 * meanwhile reach the portal only after the queue is reactivated.
 */
export function WebhookBanner({
	account,
	name,
	webhook,
	invalidate
}: {
	account: string
	name?: string
	webhook: WebhookState
	invalidate: string[]
}) {
	const [pending, reactivate] = usePending(() =>
		mutate(
			'POST /api/asaas/accounts/:account/webhook/reactivate',
			{ params: { account } },
			{ success: { title: 'Webhook reativado', description: (r) => r.message }, errorTitle: 'Erro ao reativar o webhook', invalidate }
		)
	)
	if (webhook.status !== 'interrompido' && webhook.status !== 'penalizado' && webhook.status !== 'erro') return null
	return (
		<div role="alert" className={`alert ${webhook.status === 'erro' ? 'alert-warning' : 'alert-error'} alert-soft items-start`}>
			<AlertTriangle className="size-5 shrink-0" aria-hidden="true" />
			<div className="grow">
				<p className="font-semibold">{name ? `Webhook do Asaas — ${name}` : 'Webhook do Asaas'}</p>
				<p className="text-sm">{webhook.message}</p>
			</div>
			{webhook.status !== 'erro' && (
				<button type="button" className="btn btn-sm" onClick={reactivate} disabled={pending}>
					{pending ? <span className="loading loading-spinner loading-xs" /> : <RefreshCw className="size-4" aria-hidden="true" />}
					Reativar fila
				</button>
			)}
		</div>
	)
}
