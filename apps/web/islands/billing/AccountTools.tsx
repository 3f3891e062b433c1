import { FlaskConical } from 'lucide-react'
import { useState } from 'react'
import type { AccountUsage, AsaasRehearsal } from '../../../../modules/billing/model'
import { formatNumber, formatPercent } from '../../../../modules/core'
import { Modal } from '../../components/Modal'
import { RehearsalSteps } from '../../components/RehearsalSteps'
import { call, errorText } from '../../lib/api'
import { toast } from '../../stores/toast'

/** An account's use of Asaas' quota by the portal in the last 12 hours, toned as it nears the limit. */
export function UsageLine({ uso }: { uso: AccountUsage }) {
	const share = uso.requisicoes12h / uso.cota
	const tone = share >= 0.8 ? 'text-error' : share >= 0.5 ? 'text-warning' : 'text-base-content/70'
	return (
		<p className={`text-sm ${tone}`}>
			Uso do Asaas pelo portal (12 h): {formatNumber(uso.requisicoes12h)} de {formatNumber(uso.cota)} requisições (
			{formatPercent(share * 100)})
			{uso.restanteAsaas !== null && ` · o Asaas informa ${formatNumber(uso.restanteAsaas)} restantes na conta`}
		</p>
	)
}

/** "Ensaio completo no sandbox": the check:asaas steps with the account's saved key, listed with a verdict. */
export function RehearsalButton({ account, name, small = false }: { account: string; name: string; small?: boolean }) {
	const [open, setOpen] = useState(false)
	const [pending, setPending] = useState(false)
	const [result, setResult] = useState<AsaasRehearsal | null>(null)
	async function run() {
		setOpen(true)
		setPending(true)
		setResult(null)
		try {
			setResult(await call('POST /api/admin/asaas-accounts/:account/rehearsal', { params: { account } }))
		} catch (error) {
			setOpen(false)
			toast({ title: 'Erro no ensaio', description: errorText(error, 'Não foi possível rodar o ensaio.'), variant: 'destructive' })
		}
		setPending(false)
	}
	return (
		<>
			<button
				type="button"
				className={`btn ${small ? 'btn-sm' : ''}`}
				onClick={run}
				disabled={pending}
				aria-label={`Ensaio completo no sandbox de ${name}`}
			>
				{pending ? <span className="loading loading-spinner loading-sm" /> : <FlaskConical className="size-4" aria-hidden="true" />}
				Ensaio completo
			</button>
			<Modal
				open={open}
				onClose={() => setOpen(false)}
				title={`Ensaio completo no sandbox — ${name}`}
				size="lg"
				footer={
					<button type="button" className="btn" onClick={() => setOpen(false)}>
						Fechar
					</button>
				}
			>
				{pending && (
					<p className="flex items-center gap-2 text-sm" role="status">
						<span className="loading loading-spinner loading-sm" /> Criando um carnê de teste, lendo suas parcelas, o PDF e o webhook…
					</p>
				)}
				{result && (
					<RehearsalSteps
						ok={result.ok}
						verdict={result.verdict}
						lines={result.steps.map((s) => ({
							name: s.name,
							result: s.result,
							text: s.accepted === false ? `${s.answer} — o cliente do portal não aceita esta resposta` : s.answer
						}))}
					/>
				)}
			</Modal>
		</>
	)
}
