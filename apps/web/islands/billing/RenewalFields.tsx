import { useStore } from '@nanostores/react'
import { atom, computed } from 'nanostores'
import { useEffect } from 'react'
import { MAX_CREDITS_PER_PARCEL, renewalWords } from '../../../../modules/billing/model'
import { can, formatNumber } from '../../../../modules/core'
import { Field, ToggleField } from '../../components/ui'
import { routeStore } from '../../lib/query'
import { $configuracoes, savedNumber } from '../../lib/settings'
import { $user } from '../../stores/session'

/** Whose credits pay the renewals: '' = the signed-in representative's own, else a representative's CNPJ. */
const $poolOwner = atom('')
const $available = routeStore(
	'GET /api/credits/available',
	computed($poolOwner, (representanteCnpj) => ({ representanteCnpj }))
)

/**
 * The credits of whoever pays a carnê's renewals (`owner`: '' for the signed-in representative's own, a
 * representative's CNPJ, or undefined while not known, e.g. no company chosen yet); `available` undefined until read.
 */
export function usePoolCredits(owner: string | undefined) {
	const ownPool = can(useStore($user)?.tipo, 'credits.own')
	useEffect(() => $poolOwner.set(owner ?? ''), [owner])
	const total = useStore($available).data?.total
	return { ownPool, available: owner === undefined ? undefined : total }
}

/**
 * A carnê's renewal option (issue 37): the switch "Renovar a licença a cada parcela paga", the credits each paid parcel
 * spends and the licence days they buy (app.valor_credito_dia), with the credits there are to pay for it.
 */
export function RenewalFields({
	on,
	pool,
	creditos,
	error,
	onRenovar,
	onCreditos
}: {
	on: boolean
	pool: ReturnType<typeof usePoolCredits>
	creditos: string
	error?: string
	onRenovar: (on: boolean) => void
	onCreditos: (value: string) => void
}) {
	const config = useStore($configuracoes)
	const perCredit = savedNumber(config.data, 'app.valor_credito_dia', 33)
	const count = Number(creditos)
	const { ownPool, available } = pool
	const creditsNote =
		available === undefined
			? ownPool
				? null
				: 'Escolha a empresa para ver os créditos do representante.'
			: available > 0
				? `${ownPool ? 'Você tem' : 'O representante tem'} ${formatNumber(available)} ${available === 1 ? 'crédito disponível' : 'créditos disponíveis'}.`
				: `${ownPool ? 'Você não tem' : 'O representante não tem'} créditos agora: as renovações aguardam até que eles cheguem.`
	return (
		<div className="space-y-3 rounded-box border border-base-300 p-3 sm:col-span-2">
			<ToggleField
				label={<span className="font-medium">Renovar a licença a cada parcela paga</span>}
				checked={on}
				onChecked={onRenovar}
				toggleClassName="toggle-primary"
			/>
			{creditsNote && <p className="text-xs text-base-content/70">{creditsNote}</p>}
			{on && (
				<Field
					label="Créditos por parcela"
					error={error}
					hint={Number.isInteger(count) && count > 0 ? renewalWords.days(count, perCredit) : `De 1 a ${MAX_CREDITS_PER_PARCEL}`}
				>
					<input
						className="input w-full sm:w-40"
						type="number"
						min={1}
						max={MAX_CREDITS_PER_PARCEL}
						inputMode="numeric"
						value={creditos}
						onChange={(e) => onCreditos(e.target.value)}
					/>
				</Field>
			)}
		</div>
	)
}
