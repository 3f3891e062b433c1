import { useStore } from '@nanostores/react'
import { formatCnpj, maskPhone } from '../../../../modules/core'
import { RepresentativeCreate, type RepresentativeInput, type RepresentativeView } from '../../../../modules/resellers/model'
import { AddressFields, addressOf } from '../../components/AddressFields'
import { CnpjField, EmailField, EvolutionInstanceField, PhoneField, UrlField } from '../../components/ContactFields'
import { FormDialog } from '../../components/Modal'
import { SelectField, TextField, ToggleField } from '../../components/ui'
import { useZodForm } from '../../lib/form'
import { saveRecord } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { REPRESENTATIVE_KEYS } from './representative-keys'

const $managers = routeStore('GET /api/managers')

/** Only an administrador chooses the manager; the list is loaded only for them. */
function ManagerSelect(bound: { value: string; onValue: (v: string) => void; error?: string }) {
	const { data, loading } = useStore($managers)
	return (
		<SelectField
			label="Gerente"
			className="sm:col-span-2"
			{...bound}
			disabled={loading && !data}
			placeholder="Sem gerente"
			options={(data ?? []).map((m) => ({ value: m.id, label: m.nome }))}
		/>
	)
}

/**
 * Novo Representante / Editar Representante (1-core §2.10, §5), every field checked beside it. Only an administrador
 * chooses the manager and binds the WhatsApp instance (`admin`); a gerente sees the instance without changing it.
 */
export default function RepresentativeDialog({
	editing,
	admin,
	onClose
}: {
	editing: RepresentativeView | null
	admin: boolean
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
			...addressOf(r),
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
			...(admin ? { evo_instancia: v.evo_instancia, gerente_id: v.gerente_id ? Number(v.gerente_id) : null } : {})
		})
	})
	const { values, set, errors, text, toggle } = form
	return (
		<FormDialog
			title={editing ? 'Editar Representante' : 'Novo Representante'}
			size="lg"
			form={form}
			send={(body) =>
				saveRecord(
					{ create: 'POST /api/representatives', update: 'PUT /api/representatives/:id' },
					editing && { id: editing.codigo },
					body,
					{ title: 'Representante', noun: 'representante', invalidate: REPRESENTATIVE_KEYS }
				)
			}
			onClose={onClose}
			submitLabel={editing ? 'Salvar alterações' : 'Criar representante'}
			className="grid gap-4 sm:grid-cols-2"
		>
			<TextField label="Nome *" className="sm:col-span-2" maxLength={200} {...text('nome')} />
			<CnpjField {...text('cnpj')} />
			<EmailField {...text('email')} />
			<PhoneField placeholder="(00) 0000-0000" {...text('fone')} />
			<PhoneField label="WhatsApp" {...text('whatsapp')} />
			<AddressFields value={values} onChange={set} errors={errors} />
			{admin && <ManagerSelect {...text('gerente_id')} />}
			<UrlField label="Link de pagamento" hint="Endereço http(s) completo." className="sm:col-span-2" maxLength={500} {...text('plink')} />
			<EvolutionInstanceField {...text('evo_instancia')} disabled={!admin} hint={admin ? undefined : 'Vinculada pelo administrador.'} />
			<ToggleField label="Ativar API Asaas" className="flex items-center gap-3 self-end pb-2 text-sm" {...toggle('ativar_api_asaas')} />
		</FormDialog>
	)
}
