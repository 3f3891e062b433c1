import { useStore } from '@nanostores/react'
import { atom, computed } from 'nanostores'
import { Building2, Plus, Save, Users } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { formatCnpj, maskCnpj, normalizeCnpj, formatDate, maskPhone, isHttpUrl } from '../../../../modules/core'
import type { RepresentativeInput, RepresentativeView } from '../../../../modules/resellers/model'
import { AddressFields, EmailField, PhoneField } from '../../components/ContactFields'
import { DataTable } from '../../components/DataTable'
import { Modal, ModalActions } from '../../components/Modal'
import { PageRoot } from '../../components/PageRoot'
import { AccessDenied, ActiveBadge, EmptyState, ErrorPanel, Field, FormError, RowAction, SearchInput } from '../../components/ui'
import { ApiError, errorText } from '../../lib/api'
import { useEditDialog, useSearch } from '../../lib/hooks'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { confirmAction } from '../../stores/confirm'
import { $user } from '../../stores/session'

const $search = atom('')
const $representatives = routeStore(
	'GET /api/representatives',
	computed($search, (search) => ({ search }))
)
const $managers = routeStore('GET /api/managers')
const $current = routeStore('GET /api/representatives/current')

const INVALIDATE = ['/api/representatives', '/api/dashboard', '/api/reports']

interface FormState {
	nome: string
	cnpj: string
	email: string
	fone: string
	whatsapp: string
	endereco: string
	bairro: string
	cidade: string
	uf: string
	cep: string
	gerente_id: string
	plink: string
	ativar_api_asaas: boolean
	evo_instancia: string
}

function toForm(r: RepresentativeView | null): FormState {
	return {
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
	}
}

/** Only an administrador chooses the manager; the list is loaded only for them. */
function ManagerSelect({ value, onChange }: { value: string; onChange: (v: string) => void }) {
	const { data, loading } = useStore($managers)
	return (
		<Field label="Gerente">
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

function RepresentativeDialog({
	editing,
	open,
	onClose,
	isAdmin
}: {
	editing: RepresentativeView | null
	open: boolean
	onClose: () => void
	isAdmin: boolean
}) {
	const [form, setForm] = useState(() => toForm(editing))
	const [error, setError] = useState<string | null>(null)
	const [pending, setPending] = useState(false)
	const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }))

	async function submit(e: FormEvent) {
		e.preventDefault()
		if (!form.nome.trim() || !form.cnpj.trim()) return setError('Nome e CNPJ são obrigatórios.')
		if (form.plink.trim() && !isHttpUrl(form.plink.trim())) return setError('Link inválido: use um endereço http(s) completo.')
		setError(null)
		setPending(true)
		const body: RepresentativeInput = {
			nome: form.nome.trim(),
			cnpj: normalizeCnpj(form.cnpj),
			email: form.email.trim() || null,
			fone: form.fone || null,
			whatsapp: form.whatsapp || null,
			endereco: form.endereco,
			bairro: form.bairro,
			cidade: form.cidade,
			uf: form.uf || null,
			cep: form.cep || null,
			plink: form.plink.trim() || null,
			ativar_api_asaas: form.ativar_api_asaas ? 'S' : 'N',
			evo_instancia: form.evo_instancia,
			...(isAdmin ? { gerente_id: form.gerente_id ? Number(form.gerente_id) : null } : {})
		}
		const result = editing
			? await mutate(
					'PUT /api/representatives/:id',
					{ params: { id: editing.codigo }, body },
					{ success: { title: 'Representante atualizado' }, errorTitle: 'Erro ao atualizar representante', invalidate: INVALIDATE }
				)
			: await mutate(
					'POST /api/representatives',
					{ body },
					{ success: { title: 'Representante criado' }, errorTitle: 'Erro ao criar representante', invalidate: INVALIDATE }
				)
		setPending(false)
		if (result) onClose()
	}

	return (
		<Modal
			open={open}
			onClose={onClose}
			size="lg"
			title={editing ? 'Editar Representante' : 'Novo Representante'}
			footer={
				<ModalActions
					onCancel={onClose}
					form="representative-form"
					pending={pending}
					label={editing ? 'Salvar alterações' : 'Criar representante'}
				/>
			}
		>
			<form id="representative-form" className="grid gap-4 sm:grid-cols-2" onSubmit={submit} noValidate>
				<Field label="Nome *" className="sm:col-span-2">
					<input className="input w-full" value={form.nome} maxLength={200} onChange={(e) => set('nome', e.target.value)} required />
				</Field>
				<Field label="CNPJ *">
					<input
						className="input w-full"
						value={form.cnpj}
						maxLength={18}
						placeholder="00.000.000/0000-00"
						onChange={(e) => set('cnpj', maskCnpj(e.target.value))}
						required
					/>
				</Field>
				<EmailField value={form.email} onChange={(v) => set('email', v)} />
				<PhoneField value={form.fone} placeholder="(00) 0000-0000" onChange={(v) => set('fone', v)} />
				<PhoneField label="WhatsApp" value={form.whatsapp} onChange={(v) => set('whatsapp', v)} />
				<AddressFields value={form} onChange={set} />
				{isAdmin && (
					<div className="sm:col-span-2">
						<ManagerSelect value={form.gerente_id} onChange={(v) => set('gerente_id', v)} />
					</div>
				)}
				<Field label="Link de pagamento" hint="Endereço http(s) completo." className="sm:col-span-2">
					<input
						type="url"
						className="input w-full"
						value={form.plink}
						maxLength={500}
						placeholder="https://"
						onChange={(e) => set('plink', e.target.value)}
					/>
				</Field>
				<Field label="Instância Evolution">
					<input
						className="input w-full"
						value={form.evo_instancia}
						maxLength={100}
						onChange={(e) => set('evo_instancia', e.target.value)}
					/>
				</Field>
				<label className="flex items-center gap-3 self-end pb-2">
					<input
						type="checkbox"
						className="toggle toggle-success"
						checked={form.ativar_api_asaas}
						onChange={(e) => set('ativar_api_asaas', e.target.checked)}
					/>
					<span className="text-sm">Ativar API Asaas</span>
				</label>
				<FormError message={error} />
			</form>
		</Modal>
	)
}

function RepresentativesList({ isAdmin }: { isAdmin: boolean }) {
	const [search, setSearch, typed] = useSearch((s) => $search.set(encodeURIComponent(s.trim())))
	const debounced = typed.trim()
	const { data, loading, error } = useStore($representatives)
	const dialog = useEditDialog<RepresentativeView>()

	async function remove(r: RepresentativeView) {
		const ok = await confirmAction({
			title: 'Excluir representante',
			message: `Excluir o representante ${r.nome} (${formatCnpj(r.cnpj)})?\nEsta ação não pode ser desfeita.`,
			confirmLabel: 'Excluir',
			destructive: true
		})
		if (ok)
			await mutate(
				'DELETE /api/representatives/:id',
				{ params: { id: r.codigo } },
				{ success: { title: 'Representante excluído' }, errorTitle: 'Erro ao excluir representante', invalidate: INVALIDATE }
			)
	}

	return (
		<div className="space-y-4">
			<div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
				<SearchInput value={search} onChange={setSearch} placeholder="Buscar por nome, CNPJ ou cidade..." label="Buscar representantes" />
				<button type="button" className="btn btn-primary" onClick={() => dialog.show(null)}>
					<Plus className="size-4" /> Novo Representante
				</button>
			</div>
			{error ? (
				<ErrorPanel title="Erro ao carregar representantes" message={errorText(error)} onRetry={() => $representatives.revalidate()} />
			) : (
				<DataTable
					rows={data}
					loading={loading}
					rowKey={(r) => r.codigo}
					caption="Representantes"
					empty={
						<EmptyState
							title={debounced ? 'Nenhum representante encontrado' : 'Nenhum representante cadastrado'}
							hint={debounced ? 'Tente outro nome, CNPJ ou cidade.' : 'Cadastre o primeiro representante.'}
							icon={<Users className="size-10" />}
						/>
					}
					cardTitle={(r) => r.nome}
					columns={[
						{
							header: 'Representante',
							hideOnCard: true,
							cell: (r) => (
								<div className="min-w-0">
									<p className="font-medium">{r.nome}</p>
									{r.email && <p className="text-xs text-base-content/60">{r.email}</p>}
								</div>
							)
						},
						{ header: 'CNPJ', cell: (r) => <span className="font-mono text-xs">{formatCnpj(r.cnpj)}</span> },
						{ header: 'Cidade', cell: (r) => (r.cidade ? `${r.cidade}${r.uf ? `/${r.uf}` : ''}` : '—') },
						{ header: 'Contato', cell: (r) => (r.whatsapp || r.fone ? maskPhone(r.whatsapp ?? r.fone ?? '') : '—') },
						{ header: 'Gerente', cell: (r) => r.gerente?.nome ?? <span className="text-base-content/50">Sem gerente</span> },
						{
							header: 'Empresas',
							cell: (r) => (
								<span className="inline-flex items-center gap-1 tabular-nums">
									<Building2 className="size-3.5 opacity-60" aria-hidden="true" />
									{r.nempresas}
								</span>
							)
						},
						{
							header: 'API Asaas',
							cell: (r) => <ActiveBadge active={r.ativar_api_asaas === 'S'} labels={['Ativa', 'Inativa']} />
						},
						{ header: 'Cadastro', cell: (r) => formatDate(r.data) }
					]}
					actions={(r) => (
						<>
							<RowAction kind="edit" label={`Editar ${r.nome}`} onClick={() => dialog.show(r)} withText />
							{isAdmin && <RowAction kind="delete" label={`Excluir ${r.nome}`} onClick={() => remove(r)} withText />}
						</>
					)}
				/>
			)}
			<RepresentativeDialog key={dialog.key} open={dialog.open} editing={dialog.editing} isAdmin={isAdmin} onClose={dialog.close} />
		</div>
	)
}

function ApiSettingsForm({ record }: { record: RepresentativeView }) {
	const [asaas, setAsaas] = useState(record.ativar_api_asaas === 'S')
	const [plink, setPlink] = useState(record.plink ?? '')
	const [instancia, setInstancia] = useState(record.evo_instancia ?? '')
	const [error, setError] = useState<string | null>(null)
	const [pending, setPending] = useState(false)

	async function save(e: FormEvent) {
		e.preventDefault()
		if (plink.trim() && !isHttpUrl(plink.trim())) return setError('Link inválido: use um endereço http(s) completo.')
		setError(null)
		setPending(true)
		await mutate(
			'PUT /api/representatives/:id',
			{
				params: { id: record.codigo },
				body: { ativar_api_asaas: asaas ? 'S' : 'N', plink: plink.trim() || null, evo_instancia: instancia.trim() || null }
			},
			{
				success: { title: 'Configurações atualizadas' },
				errorTitle: 'Erro ao atualizar configurações',
				invalidate: ['/api/representatives']
			}
		)
		setPending(false)
	}

	return (
		<section className="max-w-2xl rounded-box border border-base-300 bg-base-100 p-4 sm:p-6" aria-labelledby="api-settings-title">
			<h3 id="api-settings-title" className="text-lg font-semibold">
				Minhas Configurações de API
			</h3>
			<p className="mb-5 text-sm text-base-content/70">
				{record.nome} · {formatCnpj(record.cnpj)}
			</p>
			<form className="space-y-4" onSubmit={save} noValidate>
				<label className="flex items-center justify-between gap-3 rounded-field border border-base-300 p-3">
					<span>
						<span className="block text-sm font-medium">Ativar API Asaas</span>
						<span className="block text-xs text-base-content/60">Permite cobrar seus clientes pelo Asaas.</span>
					</span>
					<input type="checkbox" className="toggle toggle-success" checked={asaas} onChange={(e) => setAsaas(e.target.checked)} />
				</label>
				<Field label="Link de pagamento" hint="Endereço http(s) completo, enviado aos seus clientes.">
					<input
						type="url"
						className="input w-full"
						value={plink}
						maxLength={500}
						placeholder="https://"
						onChange={(e) => setPlink(e.target.value)}
					/>
				</Field>
				<Field label="Instância Evolution" hint="Nome da sua instância do WhatsApp (Evolution API).">
					<input className="input w-full" value={instancia} maxLength={100} onChange={(e) => setInstancia(e.target.value)} />
				</Field>
				<FormError message={error} />
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

function OwnApiSettings() {
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

export default function RepresentativesPage() {
	const user = useStore($user)
	return (
		<PageRoot>
			{user?.tipo === 'administrador' || user?.tipo === 'gerente' ? (
				<RepresentativesList isAdmin={user.tipo === 'administrador'} />
			) : user?.tipo === 'representante' ? (
				<OwnApiSettings />
			) : (
				<AccessDenied message="Acesso negado. Apenas administradores e gerentes podem ver representantes." />
			)}
		</PageRoot>
	)
}
