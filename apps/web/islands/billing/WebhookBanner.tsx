import { AlertTriangle, RefreshCw } from 'lucide-react'
import type { WebhookState } from '../../../../modules/billing/model'
import type { GetRoute } from '../../lib/api'
import { usePending } from '../../lib/hooks'
import { mutate } from '../../lib/mutate'

/**
 * Shown on the financial screens when Asaas interrupted or penalised an account's webhook queue (payments made
 * meanwhile reach the portal only after the queue is reactivated), and while the account's key opens another Asaas
 * account than its carnês were made on.
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
	invalidate: readonly GetRoute[]
}) {
	const [pending, reactivate] = usePending(() =>
		mutate(
			'POST /api/asaas/accounts/:account/webhook/reactivate',
			{ params: { account } },
			{ success: { title: 'Webhook reativado', description: (r) => r.message }, errorTitle: 'Erro ao reativar o webhook', invalidate }
		)
	)
	const title = name ? `Webhook do Asaas — ${name}` : 'Webhook do Asaas'
	const accountAlert = webhook.conta_aviso && (
		<div role="alert" className="alert alert-error alert-soft items-start">
			<AlertTriangle className="size-5 shrink-0" aria-hidden="true" />
			<div className="grow">
				<p className="font-semibold">{name ? `Chave do Asaas — ${name}` : 'Chave do Asaas'}</p>
				<p className="text-sm">{webhook.conta_aviso}</p>
			</div>
		</div>
	)
	if (webhook.status !== 'interrompido' && webhook.status !== 'penalizado' && webhook.status !== 'erro') return accountAlert || null
	return (
		<>
			{accountAlert}
			<div role="alert" className={`alert ${webhook.status === 'erro' ? 'alert-warning' : 'alert-error'} alert-soft items-start`}>
				<AlertTriangle className="size-5 shrink-0" aria-hidden="true" />
				<div className="grow">
					<p className="font-semibold">{title}</p>
					<p className="text-sm">{webhook.message}</p>
				</div>
				{webhook.status !== 'erro' && (
					<button type="button" className="btn btn-sm" onClick={reactivate} disabled={pending}>
						{pending ? <span className="loading loading-spinner loading-xs" /> : <RefreshCw className="size-4" aria-hidden="true" />}
						Reativar fila
					</button>
				)}
			</div>
		</>
	)
}
