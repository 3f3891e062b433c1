import { useStore } from '@nanostores/react'
import { Plus } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { formatCnpj, formatReais, moneyText, parseMoneyText } from '../../../../modules/core'
import { AddCreditsBody } from '../../../../modules/credits/model'
import { FormDialog } from '../../components/Modal'
import { MoneyField, SelectField, TextField } from '../../components/ui'
import { useZodForm } from '../../lib/form'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { $configuracoes } from '../../lib/settings'
import { CREDIT_READS } from '../../stores/credits'

const $allReps = routeStore('GET /api/credits/summary', { limit: 1000, sort: 'nome', order: 'asc' })

/** Adicionar Créditos (2-administration §2.1, §5.1): representative, quantity and unit value, each checked beside it. */
export default function AddCreditsDialog({ onClose }: { onClose: () => void }) {
	const reps = useStore($allReps)
	const config = useStore($configuracoes)
	const savedUnit = config.data?.find((e) => e.chave === 'app.valor_credito_individual')?.valor ?? '50.00'
	const form = useZodForm({
		schema: AddCreditsBody,
		initial: { representanteId: '', amount: '1', unitValue: moneyText(savedUnit) },
		toInput: (v) => ({
			representanteId: v.representanteId,
			amount: v.amount.trim() === '' ? (undefined as unknown as number) : Number(v.amount),
			unitValue: parseMoneyText(v.unitValue) ?? (undefined as unknown as number)
		})
	})
	const { values, set, errors, text } = form
	// The unit value starts at the setting once it arrives, unless already typed over.
	const unitTouched = useRef(false)
	useEffect(() => {
		if (!unitTouched.current) set('unitValue', moneyText(savedUnit))
	}, [savedUnit])

	const amount = Number(values.amount)
	const unit = parseMoneyText(values.unitValue) ?? 0

	return (
		<FormDialog
			title="Adicionar Créditos"
			form={form}
			send={(body) =>
				mutate(
					'POST /api/credits',
					{ body },
					{
						success: {
							title: 'Créditos adicionados',
							description: `${body.amount} ${body.amount === 1 ? 'crédito adicionado' : 'créditos adicionados'} com sucesso.`
						},
						errorTitle: 'Erro ao adicionar créditos',
						invalidate: [...CREDIT_READS, 'GET /api/dashboard/stats', 'GET /api/activities', 'GET /api/activities/recent']
					}
				)
			}
			onClose={onClose}
			submitIcon={<Plus className="size-4" aria-hidden="true" />}
			submitLabel="Adicionar"
		>
			<SelectField
				label="Representante"
				placeholder={reps.loading ? 'Carregando...' : 'Selecione o representante'}
				options={(reps.data?.representatives ?? []).map((r) => ({ value: r.cnpj, label: `${r.nome} — ${formatCnpj(r.cnpj)}` }))}
				{...text('representanteId')}
			/>
			<div className="grid gap-4 sm:grid-cols-2">
				<TextField label="Quantidade" inputMode="numeric" {...text('amount')} />
				<MoneyField
					label="Valor unitário (R$)"
					error={errors.unitValue}
					value={values.unitValue}
					onValue={(v) => {
						unitTouched.current = true
						set('unitValue', v)
					}}
				/>
			</div>
			{amount > 0 && unit > 0 && (
				<p className="text-sm text-base-content/70">
					Total: <strong>{formatReais(amount * unit)}</strong>
				</p>
			)}
		</FormDialog>
	)
}
