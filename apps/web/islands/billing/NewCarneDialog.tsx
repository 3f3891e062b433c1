import { useStore } from '@nanostores/react'
import { Plus } from 'lucide-react'
import {
	CHARGE_TYPES,
	CHARGE_TYPE_LABELS,
	CarneBody,
	FIRST_DUE_HORIZON_YEARS,
	firstDueDateProblem
} from '../../../../modules/billing/model'
import { can, isoDateInSaoPaulo, parseMoneyText, yearsLater } from '../../../../modules/core'
import { CompanyPicker } from '../../components/CompanyPicker'
import { Modal, ModalActions } from '../../components/Modal'
import { DateInput, Field, MoneyInput } from '../../components/ui'
import { type FieldErrors, useZodForm } from '../../lib/form'
import { mutate } from '../../lib/mutate'
import { $companyOptions } from '../../stores/companies'
import { $user } from '../../stores/session'
import { RenewalFields, usePoolCredits } from './RenewalFields'
import { CARNE_KEYS } from './carne-parts'

/** 'Novo Carnê': the spec's fields, checked with the server's schema; the first due date not before today (Brazil). */
export default function NewCarneDialog({ onClose }: { onClose: () => void }) {
	const today = isoDateInSaoPaulo(new Date())
	const form = useZodForm({
		schema: CarneBody,
		initial: {
			empresa: '',
			valor: '',
			parcelas: '',
			vencimento: '',
			tipo: 'BOLETO' as (typeof CHARGE_TYPES)[number],
			descricao: '',
			/** null: not touched, the server's default (on when the representative has credits). */
			renovar: null as boolean | null,
			creditos: '1'
		},
		toInput: (v) => ({
			empresa_codigo: v.empresa,
			valor_total: v.valor.trim() === '' ? '' : (parseMoneyText(v.valor) ?? v.valor),
			numero_parcelas: v.parcelas,
			data_primeiro_vencimento: v.vencimento,
			tipo_cobranca: v.tipo,
			descricao: v.descricao,
			// Untouched: the server applies the default the switch shows (on when the representative has credits).
			renovar_licenca: v.renovar ?? undefined,
			// Switched off, the hidden field is not checked: the carnê keeps the default, 1.
			creditos_por_parcela: v.renovar === false ? undefined : v.creditos.trim() === '' ? '' : Number(v.creditos)
		}),
		check: (v): FieldErrors => {
			const problem = /^\d{4}-\d{2}-\d{2}$/.test(v.vencimento) ? firstDueDateProblem(v.vencimento, today) : null
			return problem ? { data_primeiro_vencimento: problem } : {}
		}
	})
	const { values, set, errors } = form
	// Whose credits pay the renewals: the representative's own, or the chosen company's representative's.
	const role = useStore($user)?.tipo
	const options = useStore($companyOptions)
	const pool = usePoolCredits(
		can(role, 'credits.own') ? '' : options.data?.companies.find((c) => String(c.codigo) === values.empresa)?.cnpj_representante
	)
	const defaultRenewal = pool.available === undefined ? undefined : pool.available > 0
	const renewing = values.renovar ?? defaultRenewal ?? false
	const submit = form.submit(async (input) => {
		const body = CarneBody.parse(input)
		const created = await mutate(
			'POST /api/carnes',
			{ body },
			{
				success: { title: 'Carnê criado com sucesso!' },
				errorTitle: 'Erro ao criar carnê',
				errorFallback: 'Tente novamente',
				invalidate: CARNE_KEYS
			}
		)
		if (created) onClose()
	})
	return (
		<Modal
			open
			onClose={onClose}
			title="Novo Carnê"
			footer={
				<ModalActions onCancel={onClose} form="carne-form" pending={form.pending} label="Criar Carnê" icon={<Plus className="size-4" />} />
			}
		>
			<form id="carne-form" className="grid gap-4 sm:grid-cols-2" onSubmit={submit} noValidate>
				<div className="sm:col-span-2">
					<CompanyPicker value={values.empresa} onChange={(v) => set('empresa', v)} error={errors.empresa_codigo} />
				</div>
				<Field label="Valor Total (R$)" error={errors.valor_total}>
					<MoneyInput
						value={values.valor}
						onChange={(v) => set('valor', v)}
						placeholder="0,00"
						aria-invalid={errors.valor_total ? true : undefined}
					/>
				</Field>
				<Field label="Parcelas" error={errors.numero_parcelas} hint="De 2 a 12">
					<input
						className="input w-full"
						type="number"
						min={2}
						max={12}
						inputMode="numeric"
						value={values.parcelas}
						onChange={(e) => set('parcelas', e.target.value)}
					/>
				</Field>
				<Field label="Primeiro Vencimento" error={errors.data_primeiro_vencimento}>
					<DateInput
						value={values.vencimento}
						min={today}
						max={yearsLater(today, FIRST_DUE_HORIZON_YEARS)}
						onChange={(v) => set('vencimento', v)}
					/>
				</Field>
				<Field label="Tipo de Cobrança" error={errors.tipo_cobranca}>
					<select className="select w-full" value={values.tipo} onChange={(e) => set('tipo', e.target.value as typeof values.tipo)}>
						{CHARGE_TYPES.map((t) => (
							<option key={t} value={t}>
								{CHARGE_TYPE_LABELS[t]}
							</option>
						))}
					</select>
				</Field>
				<RenewalFields
					on={renewing}
					pool={pool}
					creditos={values.creditos}
					error={errors.creditos_por_parcela}
					onRenovar={(on) => set('renovar', on)}
					onCreditos={(v) => set('creditos', v)}
				/>
				<Field label="Descrição (opcional)" error={errors.descricao} className="sm:col-span-2">
					<textarea
						className="textarea w-full"
						rows={2}
						maxLength={500}
						value={values.descricao}
						onChange={(e) => set('descricao', e.target.value)}
					/>
				</Field>
			</form>
		</Modal>
	)
}
