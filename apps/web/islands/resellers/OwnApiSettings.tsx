import { useStore } from '@nanostores/react'
import { Save } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { formatCnpj } from '../../../../modules/core'
import type { RepresentativeUpdate, RepresentativeView } from '../../../../modules/resellers/model'
import { EmptyState, ErrorPanel, Field, TextField } from '../../components/ui'
import { ApiError, errorText } from '../../lib/api'
import { fieldErrors, useSchemaOnDemand } from '../../lib/form'
import { usePending } from '../../lib/hooks'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'

const $current = routeStore('GET /api/representatives/current')

/** 'Minhas Configurações de API' (1-core §2.10): what a representante changes on their own record. */
function ApiSettingsForm({ record }: { record: RepresentativeView }) {
	const [asaas, setAsaas] = useState(record.ativar_api_asaas === 'S')
	const [plink, setPlink] = useState(record.plink ?? '')
	const [errors, setErrors] = useState<Record<string, string>>({})
	// The schema (and zod) load when the form is sent: the form is the page's first paint (issue 15). The button is
	// busy from the click, the loading included.
	const rule = useSchemaOnDemand(
		() => import('../../../../modules/resellers/model').then((m) => m.RepresentativeUpdate),
		'Erro ao atualizar configurações'
	)
	const [pending, save] = usePending(async (body: RepresentativeUpdate) => {
		const schema = await rule.need()
		if (!schema) return
		const problems = fieldErrors(schema, body)
		setErrors(problems)
		if (Object.keys(problems).length > 0) return
		await mutate(
			'PUT /api/representatives/:id',
			{ params: { id: record.codigo }, body },
			{
				success: { title: 'Configurações atualizadas' },
				errorTitle: 'Erro ao atualizar configurações',
				invalidate: ['GET /api/representatives', 'GET /api/representatives/current']
			}
		)
	})

	function submit(e: FormEvent) {
		e.preventDefault()
		save({
			ativar_api_asaas: asaas ? 'S' : 'N',
			plink: plink.trim() || null
		})
	}

	return (
		<section className="max-w-2xl rounded-box border border-base-300 bg-base-100 p-4 sm:p-6" aria-labelledby="api-settings-title">
			<h3 id="api-settings-title" className="text-lg font-semibold">
				Minhas Configurações de API
			</h3>
			<p className="mb-5 text-sm text-base-content/70">
				{record.nome} · {formatCnpj(record.cnpj)}
			</p>
			<form className="space-y-4" onSubmit={submit} noValidate>
				<label className="flex items-center justify-between gap-3 rounded-field border border-base-300 p-3">
					<span>
						<span className="block text-sm font-medium">Ativar API Asaas</span>
						<span className="block text-xs text-base-content/70">Permite cobrar seus clientes pelo Asaas.</span>
					</span>
					<input type="checkbox" className="toggle toggle-success" checked={asaas} onChange={(e) => setAsaas(e.target.checked)} />
				</label>
				<TextField
					label="Link de pagamento"
					hint="Endereço http(s) completo, enviado aos seus clientes."
					error={errors.plink}
					type="url"
					value={plink}
					maxLength={500}
					placeholder="https://"
					onValue={(v) => setPlink(v)}
				/>
				<Field label="Instância Evolution" hint="O WhatsApp dos seus envios: vinculado pelo administrador. Peça a ele para mudar.">
					<input className="input w-full" value={record.evo_instancia ?? 'A do portal'} readOnly disabled />
				</Field>
				<div className="flex justify-end">
					<button type="submit" className="btn btn-primary" disabled={pending}>
						{pending ? <span className="loading loading-spinner loading-sm" /> : <Save className="size-4" />}
						Salvar configurações
					</button>
				</div>
			</form>
		</section>
	)
}

export default function OwnApiSettings() {
	const { data, loading, error } = useStore($current)
	if (error) {
		if (error instanceof ApiError && error.status === 404) {
			return (
				<EmptyState
					title="Cadastro de representante não encontrado"
					hint="Procure o administrador para vincular seu CNPJ a um representante."
				/>
			)
		}
		return <ErrorPanel title="Erro ao carregar configurações" message={errorText(error)} onRetry={() => $current.revalidate()} />
	}
	if (loading || !data) return <div className="skeleton h-72 w-full max-w-2xl" role="status" aria-busy="true" aria-label="Carregando" />
	return <ApiSettingsForm key={data.codigo} record={data} />
}
