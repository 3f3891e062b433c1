import { useStore } from '@nanostores/react'
import { formatCnpj, maskCnpj, maskPhone } from '../../../../modules/core'
import { RepresentativeCreate, type RepresentativeInput, type RepresentativeView } from '../../../../modules/resellers/model'
import { AddressFields, EmailField, PhoneField } from '../../components/ContactFields'
import { FormDialog } from '../../components/Modal'
import { SelectField, TextField, ToggleField } from '../../components/ui'
import { useZodForm } from '../../lib/form'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { REPRESENTATIVE_KEYS } from './representative-keys'

const $managers = routeStore('GET /api/managers')

/** Only an administrador chooses the manager; the list is loaded only for them. */
function ManagerSelect({ value, onChange, error }: { value: string; onChange: (v: string) => void; error?: string }) {
	const { data, loading } = useStore($managers)
	return (
		<SelectField
			label="Gerente"
			className="sm:col-span-2"
			error={error}
			value={value}
			onValue={onChange}
			disabled={loading && !data}
			placeholder="Sem gerente"
			options={(data ?? []).map((m) => ({ value: m.id, label: m.nome }))}
		/>
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
	return (
		<FormDialog
			title={editing ? 'Editar Representante' : 'Novo Representante'}
			size="lg"
			form={form}
			send={(body) =>
				editing
					? mutate(
							'PUT /api/representatives/:id',
							{ params: { id: editing.codigo }, body },
							{
								success: { title: 'Representante atualizado' },
								errorTitle: 'Erro ao atualizar representante',
								invalidate: REPRESENTATIVE_KEYS
							}
						)
					: mutate(
							'POST /api/representatives',
							{ body },
							{ success: { title: 'Representante criado' }, errorTitle: 'Erro ao criar representante', invalidate: REPRESENTATIVE_KEYS }
						)
			}
			onClose={onClose}
			submitLabel={editing ? 'Salvar alterações' : 'Criar representante'}
			className="grid gap-4 sm:grid-cols-2"
		>
			<TextField
				label="Nome *"
				className="sm:col-span-2"
				error={errors.nome}
				value={values.nome}
				maxLength={200}
				onValue={(v) => set('nome', v)}
			/>
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
			{choosesManager && <ManagerSelect value={values.gerente_id} onChange={(v) => set('gerente_id', v)} error={errors.gerente_id} />}
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
			<ToggleField
				label="Ativar API Asaas"
				className="flex items-center gap-3 self-end pb-2 text-sm"
				checked={values.ativar_api_asaas}
				onChecked={(v) => set('ativar_api_asaas', v)}
			/>
		</FormDialog>
	)
}
