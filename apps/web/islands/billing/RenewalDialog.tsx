import { RefreshCcw } from 'lucide-react'
import { type CarneView, RenewalOptionBody } from '../../../../modules/billing/model'
import { carneName } from '../../../../modules/core'
import { FormDialog } from '../../components/Modal'
import { useZodForm } from '../../lib/form'
import { mutate } from '../../lib/mutate'
import { RenewalFields, usePoolCredits } from './RenewalFields'
import { CARNE_KEYS } from './carne-parts'

/** 'Renovação automática' of an active carnê: switched on or off, and the credits each paid parcel spends. */
export default function RenewalDialog({ carne, onClose }: { carne: CarneView; onClose: () => void }) {
	const pool = usePoolCredits(carne.representante?.cnpj)
	const form = useZodForm({
		schema: RenewalOptionBody,
		initial: { renovar: carne.renovar_licenca, creditos: String(carne.creditos_por_parcela) },
		toInput: (v) => ({
			renovar_licenca: v.renovar,
			creditos_por_parcela: v.renovar ? (v.creditos.trim() === '' ? '' : Number(v.creditos)) : carne.creditos_por_parcela
		})
	})
	const { values, set, errors } = form
	return (
		<FormDialog
			title={`Renovação automática — ${carneName(carne.id)}`}
			form={form}
			send={(body) =>
				mutate(
					'PATCH /api/carnes/:id/renovacao',
					{ params: { id: String(carne.id) }, body },
					{
						success: { title: 'Renovação atualizada', description: (r) => r.message },
						errorTitle: 'Erro ao alterar a renovação',
						invalidate: CARNE_KEYS
					}
				)
			}
			onClose={onClose}
			submitLabel="Salvar"
			submitIcon={<RefreshCcw className="size-4" />}
		>
			<p className="text-sm text-base-content/80">
				{carne.empresa?.razao ?? `Empresa ${carne.empresa_codigo}`}: vale para as parcelas pagas a partir de agora. Renovações que aguardam
				créditos passam a usar a nova quantidade; desligada, elas são canceladas.
			</p>
			<RenewalFields
				on={values.renovar}
				pool={pool}
				creditos={values.creditos}
				error={errors.creditos_por_parcela}
				onRenovar={(on) => set('renovar', on)}
				onCreditos={(v) => set('creditos', v)}
			/>
		</FormDialog>
	)
}
