import { useStore } from '@nanostores/react'
import { Plus } from 'lucide-react'
import { useEffect, useId, useRef } from 'react'
import { formatCnpj, formatReais, moneyText, parseMoneyText } from '../../../../modules/core'
import { AddCreditsBody } from '../../../../modules/credits/model'
import { Modal, ModalActions } from '../../components/Modal'
import { Field, MoneyInput } from '../../components/ui'
import { useZodForm } from '../../lib/form'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { $configuracoes } from '../../lib/settings'

const $allReps = routeStore('GET /api/credits/summary', { limit: 1000, sort: 'nome', order: 'asc' })

/** Adicionar Créditos (2-administration §2.1, §5.1): representative, quantity and unit value, each checked beside it. */
export default function AddCreditsDialog({ onClose }: { onClose: () => void }) {
	const reps = useStore($allReps)
	const config = useStore($configuracoes)
	const formId = useId()
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
	const { values, set, errors } = form
	// The unit value starts at the setting once it arrives, unless already typed over.
	const unitTouched = useRef(false)
	useEffect(() => {
		if (!unitTouched.current) set('unitValue', moneyText(savedUnit))
	}, [savedUnit])

	const submit = form.submit(async (body) => {
		const done = await mutate(
			'POST /api/credits',
			{ body },
			{
				success: {
					title: 'Créditos adicionados',
					description: `${body.amount} ${body.amount === 1 ? 'crédito adicionado' : 'créditos adicionados'} com sucesso.`
				},
				errorTitle: 'Erro ao adicionar créditos',
				invalidate: ['/api/credits', '/api/dashboard', '/api/activities']
			}
		)
		if (done) onClose()
	})
	const amount = Number(values.amount)
	const unit = parseMoneyText(values.unitValue) ?? 0

	return (
		<Modal
			open
			onClose={onClose}
			title="Adicionar Créditos"
			footer={
				<ModalActions
					onCancel={onClose}
					form={formId}
					pending={form.pending}
					icon={<Plus className="size-4" aria-hidden="true" />}
					label="Adicionar"
				/>
			}
		>
			<form id={formId} className="space-y-4" onSubmit={submit} noValidate>
				<Field label="Representante" error={errors.representanteId}>
					<select className="select w-full" value={values.representanteId} onChange={(e) => set('representanteId', e.target.value)}>
						<option value="">{reps.loading ? 'Carregando...' : 'Selecione o representante'}</option>
						{reps.data?.representatives.map((r) => (
							<option key={r.cnpj} value={r.cnpj}>
								{r.nome} — {formatCnpj(r.cnpj)}
							</option>
						))}
					</select>
				</Field>
				<div className="grid gap-4 sm:grid-cols-2">
					<Field label="Quantidade" error={errors.amount}>
						<input className="input w-full" inputMode="numeric" value={values.amount} onChange={(e) => set('amount', e.target.value)} />
					</Field>
					<Field label="Valor unitário (R$)" error={errors.unitValue}>
						<MoneyInput
							value={values.unitValue}
							aria-invalid={errors.unitValue ? true : undefined}
							onChange={(v) => {
								unitTouched.current = true
								set('unitValue', v)
							}}
						/>
					</Field>
				</div>
				{amount > 0 && unit > 0 && (
					<p className="text-sm text-base-content/70">
						Total: <strong>{formatReais(amount * unit)}</strong>
					</p>
				)}
			</form>
		</Modal>
	)
}
