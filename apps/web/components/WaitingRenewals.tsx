import { useStore } from '@nanostores/react'
import { Hourglass, ShoppingCart } from 'lucide-react'
import { can, carneName, formatDateOf, formatNumber } from '../../../modules/core'
import { routeStore } from '../lib/query'
import { $user } from '../stores/session'

/** The renewals paid for and not yet applied (issue 37), shared by Créditos and the Dashboard. */
export const $waitingRenewals = routeStore('GET /api/carnes/renovacoes')

const plural = (n: number, one: string, many: string) => `${formatNumber(n)} ${n === 1 ? one : many}`

/**
 * "Renovações aguardando créditos": how many paid parcels wait to renew their licence and the credits they need, the
 * oldest first (`limit` of them), with the way to buy credits for whoever buys their own. Nothing when none waits.
 */
export function WaitingRenewals({ limit, moreHref }: { limit: number; moreHref?: string }) {
	const { data } = useStore($waitingRenewals)
	const role = useStore($user)?.tipo
	if (!data || data.total === 0) return null
	const showsOwner = can(role, 'representatives.seeOthers')
	const shown = data.renovacoes.slice(0, limit)
	const rest = data.total - shown.length
	return (
		<section
			className="rounded-box border border-warning/40 bg-warning/10 p-4"
			aria-labelledby="renovacoes-aguardando"
			data-testid="waiting-renewals"
		>
			<div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
				<div className="flex items-start gap-3">
					<Hourglass className="mt-0.5 size-5 shrink-0 text-warning" aria-hidden="true" />
					<div>
						<h3 id="renovacoes-aguardando" className="font-semibold">
							{plural(data.total, 'renovação aguardando créditos', 'renovações aguardando créditos')}
						</h3>
						<p className="text-sm text-base-content/80">
							{data.total === 1 ? 'Uma parcela paga ainda não renovou a licença' : 'Parcelas pagas ainda não renovaram a licença'}:{' '}
							{plural(data.creditos, 'crédito necessário', 'créditos necessários')}. A renovação é aplicada assim que os créditos chegarem,
							das mais antigas para as mais novas.
						</p>
					</div>
				</div>
				{can(role, 'credits.purchase') && (
					<a href="/autocompra-creditos" className="btn btn-sm btn-warning shrink-0">
						<ShoppingCart className="size-4" aria-hidden="true" /> Comprar créditos
					</a>
				)}
			</div>
			<ul className="mt-3 divide-y divide-warning/20 text-sm">
				{shown.map((r) => (
					<li key={r.id} className="flex flex-wrap items-baseline justify-between gap-x-3 gap-y-0.5 py-1.5">
						<span className="font-medium">{r.empresa.razao}</span>
						<span className="text-base-content/80">
							Parcela {r.parcela}/{r.totalParcelas} do {carneName(r.carneId)} · {plural(r.creditos, 'crédito', 'créditos')} · paga em{' '}
							{formatDateOf(r.desde)}
							{showsOwner && ` · ${r.representante.nome}`}
						</span>
					</li>
				))}
			</ul>
			{rest > 0 && (
				<p className="mt-2 text-xs text-base-content/70">
					{moreHref ? (
						<a href={moreHref} className="link link-primary">
							e mais {plural(rest, 'renovação', 'renovações')}
						</a>
					) : (
						`e mais ${plural(rest, 'renovação', 'renovações')}`
					)}
				</p>
			)}
		</section>
	)
}
