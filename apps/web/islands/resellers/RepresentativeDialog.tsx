import { useStore } from '@nanostores/react'
import { formatCnpj, maskCnpj, maskPhone } from '../../../../modules/core'
import { RepresentativeCreate, type RepresentativeInput, type RepresentativeView } from '../../../../modules/resellers/model'
import { AddressFields, EmailField, PhoneField } from '../../components/ContactFields'
import { Modal, ModalActions } from '../../components/Modal'
import { Field, TextField } from '../../components/ui'
import { useZodForm } from '../../lib/form'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { REPRESENTATIVE_KEYS } from './representative-keys'

const $managers = routeStore('GET /api/managers')

/** Only an administrador chooses the manager; the list is loaded only for them. */
function ManagerSelect({ value, onChange, error }: { value: string; onChange: (v: string) => void; error?: string }) {
	const { data, loading } = useStore($managers)
	return (
		<Field label="Gerente" error={error}>
			<select className="select w-full" value={value} onChange={(e) => onChange(e.target.value)} disabled={loading && !data}>
				<option value="">Sem gerente</option>
				{data?.map((m) => (
					<option key={m.id} value={m.id}>
						{m.nome}
					</option>
				))}
			</select>
		</Field>
	)
}

/** Novo Representante / Editar Representante (1-core §2.10, §5), every field checked beside it. */
export default function RepresentativeDialog({
	editing,
	choosesManager,
	onClose
}: {
	editing: RepresentativeView | null
	choosesManager: boolean
	onClose: () => void
}) {
	const r = editing
	const form = useZodForm({
		schema: RepresentativeCreate,
		initial: {
			nome: r?.nome ?? '',
			cnpj: r ? formatCnpj(r.cnpj) : '',
			email: r?.email ?? '',
			fone: maskPhone(r?.fone ?? ''),
			whatsapp: maskPhone(r?.whatsapp ?? ''),
			endereco: r?.endereco ?? '',
			bairro: r?.bairro ?? '',
			cidade: r?.cidade ?? '',
			uf: r?.uf ?? '',
			cep: r?.cep ?? '',
			gerente_id: r?.gerente_id ? String(r.gerente_id) : '',
			plink: r?.plink ?? '',
			ativar_api_asaas: r?.ativar_api_asaas === 'S',
			evo_instancia: r?.evo_instancia ?? ''
		},
		toInput: (v): RepresentativeInput => ({
			nome: v.nome,
			cnpj: v.cnpj,
			email: v.email.trim() || null,
			fone: v.fone || null,
			whatsapp: v.whatsapp || null,
			endereco: v.endereco,
			bairro: v.bairro,
			cidade: v.cidade,
			uf: v.uf || null,
			cep: v.cep || null,
			plink: v.plink.trim() || null,
			ativar_api_asaas: v.ativar_api_asaas ? 'S' : 'N',
			evo_instancia: v.evo_instancia,
			...(choosesManager ? { gerente_id: v.gerente_id ? Number(v.gerente_id) : null } : {})
		})
	})
	const { values, set, errors } = form
	const submit = form.submit(async (body) => {
		const result = editing
			? await mutate(
					'PUT /api/representatives/:id',
					{ params: { id: editing.codigo }, body },
					{ success: { title: 'Representante atualizado' }, errorTitle: 'Erro ao atualizar representante', invalidate: REPRESENTATIVE_KEYS }
				)
			: await mutate(
					'POST /api/representatives',
					{ body },
					{ success: { title: 'Representante criado' }, errorTitle: 'Erro ao criar representante', invalidate: REPRESENTATIVE_KEYS }
				)
		if (result) onClose()
	})

	return (
		<Modal
			open
			onClose={onClose}
			size="lg"
			title={editing ? 'Editar Representante' : 'Novo Representante'}
			footer={
				<ModalActions
					onCancel={onClose}
					form="representative-form"
					pending={form.pending}
					label={editing ? 'Salvar alterações' : 'Criar representante'}
				/>
			}
		>
			<form id="representative-form" className="grid gap-4 sm:grid-cols-2" onSubmit={submit} noValidate>
				<Field label="Nome *" className="sm:col-span-2" error={errors.nome}>
					<input className="input w-full" value={values.nome} maxLength={200} onChange={(e) => set('nome', e.target.value)} />
				</Field>
				<TextField
					label="CNPJ *"
					error={errors.cnpj}
					value={values.cnpj}
					maxLength={18}
					placeholder="00.000.000/0000-00"
					onValue={(v) => set('cnpj', maskCnpj(v))}
				/>
				<EmailField value={values.email} onChange={(v) => set('email', v)} error={errors.email} />
				<PhoneField value={values.fone} placeholder="(00) 0000-0000" onChange={(v) => set('fone', v)} error={errors.fone} />
				<PhoneField label="WhatsApp" value={values.whatsapp} onChange={(v) => set('whatsapp', v)} error={errors.whatsapp} />
				<AddressFields value={values} onChange={set} errors={errors} />
				{choosesManager && (
					<div className="sm:col-span-2">
						<ManagerSelect value={values.gerente_id} onChange={(v) => set('gerente_id', v)} error={errors.gerente_id} />
					</div>
				)}
				<TextField
					label="Link de pagamento"
					hint="Endereço http(s) completo."
					className="sm:col-span-2"
					error={errors.plink}
					type="url"
					value={values.plink}
					maxLength={500}
					placeholder="https://"
					onValue={(v) => set('plink', v)}
				/>
				<TextField
					label="Instância Evolution"
					error={errors.evo_instancia}
					value={values.evo_instancia}
					maxLength={100}
					onValue={(v) => set('evo_instancia', v)}
				/>
				<label className="flex items-center gap-3 self-end pb-2">
					<input
						type="checkbox"
						className="toggle toggle-success"
						checked={values.ativar_api_asaas}
						onChange={(e) => set('ativar_api_asaas', e.target.checked)}
					/>
					<span className="text-sm">Ativar API Asaas</span>
				</label>
			</form>
		</Modal>
	)
}
