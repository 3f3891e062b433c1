import { useStore } from '@nanostores/react'
import { Plus, ShieldCheck, UserCog, Users, UserRound, Briefcase } from 'lucide-react'
import { type FormEvent, useMemo, useState } from 'react'
import type { UserView } from '../../../../modules/users/model'
import { formatCnpj, maskCnpj, normalizeCnpj, formatDateOf, ROLE_LABELS, ROLES, type Role } from '../../../../modules/core'
import { DataTable } from '../../components/DataTable'
import { Modal, ModalActions } from '../../components/Modal'
import { PageRoot } from '../../components/PageRoot'
import {
	AccessDenied,
	EmptyState,
	ErrorPanel,
	Field,
	FormError,
	InitialsAvatar,
	RowAction,
	SearchInput,
	StatCard,
	StatGrid
} from '../../components/ui'
import { errorText } from '../../lib/api'
import { useDebounced, useEditDialog } from '../../lib/hooks'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { confirmAction } from '../../stores/confirm'
import { $user } from '../../stores/session'
import { toast } from '../../stores/toast'

const $users = routeStore('GET /api/users')

/** Role colours of 2-administration §6: Administrador red, Gerente blue, Representante green. */
export const ROLE_BADGE: Record<Role, string> = {
	administrador: 'badge-error',
	gerente: 'badge-info',
	representante: 'badge-success'
}

export function RoleBadge({ tipo }: { tipo: Role }) {
	return <span className={`badge badge-sm badge-soft ${ROLE_BADGE[tipo]}`}>{ROLE_LABELS[tipo]}</span>
}

function matches(u: UserView, search: string) {
	if (!search) return true
	const lower = search.toLowerCase()
	const bare = normalizeCnpj(search)
	return u.nome.toLowerCase().includes(lower) || (u.email ?? '').toLowerCase().includes(lower) || (bare !== '' && u.cnpj.includes(bare))
}

interface FormState {
	nome: string
	cnpj: string
	tipo: Role
	representante_id: string
	email: string
	senha: string
	ativo: boolean
}

const EMPTY: FormState = { nome: '', cnpj: '', tipo: 'representante', representante_id: '', email: '', senha: '', ativo: true }

function UserDialog({ editing, open, onClose, isSelf }: { editing: UserView | null; open: boolean; onClose: () => void; isSelf: boolean }) {
	const [form, setForm] = useState<FormState>(() =>
		editing
			? {
					nome: editing.nome,
					cnpj: formatCnpj(editing.cnpj),
					tipo: editing.tipo,
					representante_id: editing.representante_id ?? '',
					email: editing.email ?? '',
					senha: '',
					ativo: editing.ativo
				}
			: EMPTY
	)
	const [error, setError] = useState<string | null>(null)
	const [pending, setPending] = useState(false)
	const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }))

	async function submit(e: FormEvent) {
		e.preventDefault()
		if (!form.nome.trim() || !form.cnpj.trim()) return setError('Nome e CNPJ são obrigatórios.')
		if (!editing && !form.senha) return setError('A senha é obrigatória para novos usuários.')
		if (form.senha && form.senha.length < 6) return setError('A senha deve ter pelo menos 6 caracteres.')
		setError(null)
		setPending(true)
		const fields = {
			cnpj: normalizeCnpj(form.cnpj),
			nome: form.nome.trim(),
			tipo: form.tipo,
			representante_id: form.tipo === 'gerente' && form.representante_id.trim() ? form.representante_id.trim() : null,
			email: form.email.trim() || null
		}
		const result = editing
			? await mutate(
					'PUT /api/users/:id',
					{ params: { id: editing.id }, body: { ...fields, ativo: form.ativo, ...(form.senha ? { senha: form.senha } : {}) } },
					{ success: { title: 'Usuário atualizado' }, errorTitle: 'Erro ao atualizar usuário', invalidate: ['/api/users'] }
				)
			: await mutate(
					'POST /api/users',
					{ body: { ...fields, senha: form.senha } },
					{ success: { title: 'Usuário criado' }, errorTitle: 'Erro ao criar usuário', invalidate: ['/api/users'] }
				)
		setPending(false)
		if (result) onClose()
	}

	return (
		<Modal
			open={open}
			onClose={onClose}
			title={editing ? 'Editar Usuário' : 'Novo Usuário'}
			footer={
				<ModalActions onCancel={onClose} form="user-form" pending={pending} label={editing ? 'Salvar alterações' : 'Criar usuário'} />
			}
		>
			<form id="user-form" className="grid gap-4 sm:grid-cols-2" onSubmit={submit} noValidate>
				<Field label="Nome *" className="sm:col-span-2">
					<input
						className="input w-full"
						value={form.nome}
						maxLength={200}
						onChange={(e) => set('nome', e.target.value)}
						autoComplete="off"
						required
					/>
				</Field>
				<Field label="CNPJ *">
					<input
						className="input w-full"
						value={form.cnpj}
						maxLength={18}
						placeholder="00.000.000/0000-00"
						onChange={(e) => set('cnpj', maskCnpj(e.target.value))}
						autoComplete="off"
						required
					/>
				</Field>
				<Field label="Tipo *">
					<select className="select w-full" value={form.tipo} onChange={(e) => set('tipo', e.target.value as Role)} disabled={isSelf}>
						{ROLES.map((r) => (
							<option key={r} value={r}>
								{ROLE_LABELS[r]}
							</option>
						))}
					</select>
				</Field>
				{form.tipo === 'gerente' && (
					<Field label="ID do representante" hint="Opcional; apenas para gerentes." className="sm:col-span-2">
						<input
							className="input w-full"
							value={form.representante_id}
							maxLength={50}
							onChange={(e) => set('representante_id', e.target.value)}
						/>
					</Field>
				)}
				<Field label="E-mail" className="sm:col-span-2">
					<input
						type="email"
						className="input w-full"
						value={form.email}
						maxLength={200}
						onChange={(e) => set('email', e.target.value)}
						autoComplete="off"
					/>
				</Field>
				<Field
					label={editing ? 'Nova senha' : 'Senha *'}
					hint={editing ? 'Deixe em branco para manter a senha atual.' : 'No mínimo 6 caracteres.'}
					className="sm:col-span-2"
				>
					<input
						type="password"
						className="input w-full"
						value={form.senha}
						onChange={(e) => set('senha', e.target.value)}
						autoComplete="new-password"
					/>
				</Field>
				{editing && !isSelf && (
					<label className="flex items-center gap-3 sm:col-span-2">
						<input
							type="checkbox"
							className="toggle toggle-success"
							checked={form.ativo}
							onChange={(e) => set('ativo', e.target.checked)}
						/>
						<span className="text-sm">Usuário ativo</span>
					</label>
				)}
				{form.tipo === 'representante' && !editing && (
					<p className="text-xs text-base-content/60 sm:col-span-2">
						O representante entra com este CNPJ. Se ainda não existir um cadastro de representante com ele, um cadastro básico é criado.
					</p>
				)}
				<FormError message={error} />
			</form>
		</Modal>
	)
}

function UsersScreen() {
	const me = useStore($user)
	const { data, loading, error } = useStore($users)
	const [search, setSearch] = useState('')
	const debounced = useDebounced(search.trim())
	const dialog = useEditDialog<UserView>()
	const rows = useMemo(() => data?.filter((u) => matches(u, debounced)), [data, debounced])

	const count = (tipo?: Role) => (data ? data.filter((u) => !tipo || u.tipo === tipo).length : 0)

	async function remove(u: UserView) {
		if (u.id === me?.id) {
			toast({ title: 'Operação não permitida', description: 'Você não pode excluir seu próprio usuário.', variant: 'destructive' })
			return
		}
		const ok = await confirmAction({
			title: 'Excluir usuário',
			message: `Excluir o usuário ${u.nome} (${formatCnpj(u.cnpj)})? Ele perde o acesso imediatamente. Esta ação não pode ser desfeita.`,
			confirmLabel: 'Excluir',
			destructive: true
		})
		if (ok)
			await mutate(
				'DELETE /api/users/:id',
				{ params: { id: u.id } },
				{ success: { title: 'Usuário excluído' }, errorTitle: 'Erro ao excluir usuário', invalidate: ['/api/users'] }
			)
	}

	return (
		<div className="space-y-6">
			<StatGrid count={4} className="grid grid-cols-2 gap-3 lg:grid-cols-4">
				{(data || !loading) && (
					<>
						<StatCard title="Total de Usuários" value={count()} icon={<Users className="size-5" />} />
						<StatCard title="Administradores" value={count('administrador')} icon={<ShieldCheck className="size-5" />} tone="error" />
						<StatCard title="Gerentes" value={count('gerente')} icon={<Briefcase className="size-5" />} tone="info" />
						<StatCard title="Representantes" value={count('representante')} icon={<UserRound className="size-5" />} tone="success" />
					</>
				)}
			</StatGrid>

			<div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
				<SearchInput value={search} onChange={setSearch} placeholder="Buscar por nome, CNPJ ou e-mail..." label="Buscar usuários" />
				<button type="button" className="btn btn-primary" onClick={() => dialog.show(null)}>
					<Plus className="size-4" /> Novo Usuário
				</button>
			</div>

			{error ? (
				<ErrorPanel title="Erro ao carregar usuários" message={errorText(error)} onRetry={() => $users.revalidate()} />
			) : (
				<DataTable
					rows={rows}
					loading={loading}
					rowKey={(u) => u.id}
					caption="Usuários"
					empty={
						<EmptyState
							title={debounced ? 'Nenhum usuário encontrado' : 'Nenhum usuário cadastrado'}
							hint={debounced ? 'Tente outro nome, CNPJ ou e-mail.' : undefined}
							icon={<UserCog className="size-10" />}
						/>
					}
					cardTitle={(u) => (
						<span className="flex items-center gap-2">
							{u.nome} <RoleBadge tipo={u.tipo} />
						</span>
					)}
					columns={[
						{
							header: 'Usuário',
							hideOnCard: true,
							cell: (u) => (
								<div className="flex items-center gap-3">
									<InitialsAvatar name={u.nome} />
									<div className="min-w-0">
										<p className="font-medium">
											{u.nome} {!u.ativo && <span className="badge badge-ghost badge-xs">Inativo</span>}
										</p>
										<p className="text-xs text-base-content/60">ID: {u.id}</p>
									</div>
								</div>
							)
						},
						{ header: 'CNPJ', cell: (u) => <span className="font-mono text-xs">{formatCnpj(u.cnpj)}</span> },
						{ header: 'Tipo', hideOnCard: true, cell: (u) => <RoleBadge tipo={u.tipo} /> },
						{ header: 'E-mail', cell: (u) => u.email ?? <span className="text-base-content/50">—</span> },
						{ header: 'Data de Criação', cell: (u) => formatDateOf(u.created_at) }
					]}
					actions={(u) => (
						<>
							<RowAction kind="edit" label={`Editar ${u.nome}`} onClick={() => dialog.show(u)} withText />
							{u.id !== me?.id && <RowAction kind="delete" label={`Excluir ${u.nome}`} onClick={() => remove(u)} withText />}
						</>
					)}
				/>
			)}

			<UserDialog
				key={dialog.key}
				open={dialog.open}
				editing={dialog.editing}
				isSelf={dialog.editing?.id === me?.id}
				onClose={dialog.close}
			/>
		</div>
	)
}

export default function UsersPage() {
	const me = useStore($user)
	return (
		<PageRoot>
			{me?.tipo === 'administrador' ? (
				<UsersScreen />
			) : (
				<AccessDenied title="Acesso Restrito" message="Apenas administradores podem acessar o gerenciamento de usuários." />
			)}
		</PageRoot>
	)
}
