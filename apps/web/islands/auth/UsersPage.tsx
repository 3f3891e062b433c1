import { useStore } from '@nanostores/react'
import { Briefcase, ShieldCheck, UserCog, UserRound, Users } from 'lucide-react'
import { lazy } from 'react'
import { ROLE_LABELS, type Role, denialOf, formatCnpj, formatDateOf, mayOpen, normalizeCnpj } from '../../../../modules/core'
import type { UserView } from '../../../../modules/users/model'
import { usersRead } from '../../../../modules/users/reads'
import { ListScreen, EditorDialog, SummaryCards, useEditor, cnpjColumn, titleColumn } from '../../components/ListScreen'
import { RolePage } from '../../components/PageRoot'
import { AddButton, AccessDenied, InitialsAvatar, EditDeleteActions, StatCard } from '../../components/ui'
import { localList } from '../../lib/list'
import { confirmThenMutate, deleteQuestion } from '../../lib/mutate'
import { $user } from '../../stores/session'
import { toast } from '../../stores/toast'

const UserDialog = lazy(() => import('./UserDialog'))

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
	const bare = normalizeCnpj(search)
	return u.nome.toLowerCase().includes(search) || (u.email ?? '').toLowerCase().includes(search) || (bare !== '' && u.cnpj.includes(bare))
}

/** Every user, sorted by the server; searched and paged here (the cards count the whole list). */
const usersList = localList<'GET /api/users', UserView>(usersRead, {
	rows: (data) => data,
	match: matches,
	exportRoute: 'GET /api/users/export'
})

function UsersScreen() {
	const me = useStore($user)
	const editor = useEditor<UserView>()

	async function remove(u: UserView) {
		if (u.id === me?.id) {
			toast({ title: 'Operação não permitida', description: 'Você não pode excluir seu próprio usuário.', variant: 'destructive' })
			return
		}
		await confirmThenMutate(
			deleteQuestion(
				'Excluir usuário',
				`Excluir o usuário ${u.nome} (${formatCnpj(u.cnpj)})? Ele perde o acesso imediatamente. Esta ação não pode ser desfeita.`
			),
			'DELETE /api/users/:id',
			{ params: { id: u.id } },
			{ success: { title: 'Usuário excluído' }, errorTitle: 'Erro ao excluir usuário', invalidate: ['GET /api/users', 'GET /api/users/me'] }
		)
	}

	return (
		<div className="space-y-6">
			<SummaryCards source={usersList} read={(data) => data} count={4} className="grid grid-cols-2 gap-3 lg:grid-cols-4">
				{(users) => {
					const count = (tipo?: Role) => users.filter((u) => !tipo || u.tipo === tipo).length
					return (
						<>
							<StatCard title="Total de Usuários" value={count()} icon={<Users className="size-5" />} />
							<StatCard title="Administradores" value={count('administrador')} icon={<ShieldCheck className="size-5" />} tone="error" />
							<StatCard title="Gerentes" value={count('gerente')} icon={<Briefcase className="size-5" />} tone="info" />
							<StatCard title="Representantes" value={count('representante')} icon={<UserRound className="size-5" />} tone="success" />
						</>
					)
				}}
			</SummaryCards>

			<div className="flex justify-end">
				<AddButton label="Novo Usuário" onClick={editor.create} />
			</div>

			<ListScreen
				source={usersList}
				noun={{ one: 'usuário', many: 'usuários' }}
				search={{ placeholder: 'Buscar por nome, CNPJ ou e-mail...' }}
				rowKey={(u) => u.id}
				empty={{ icon: <UserCog className="size-10" /> }}
				cardTitle={(u) => (
					<span className="flex items-center gap-2">
						{u.nome} <RoleBadge tipo={u.tipo} />
					</span>
				)}
				columns={[
					titleColumn<UserView>({ header: 'Usuário', sort: 'nome' }, (u) => (
						<div className="flex items-center gap-3">
							<InitialsAvatar name={u.nome} />
							<div className="min-w-0">
								<p className="font-medium">
									{u.nome} {!u.ativo && <span className="badge badge-ghost badge-xs">Inativo</span>}
								</p>
								<p className="text-xs text-base-content/70">ID: {u.id}</p>
							</div>
						</div>
					)),
					cnpjColumn(),
					{ key: 'tipo', header: 'Tipo', sort: 'tipo', hideOnCard: true, cell: (u) => <RoleBadge tipo={u.tipo} /> },
					{ key: 'email', header: 'E-mail', sort: 'email', cell: (u) => u.email ?? <span className="text-base-content/70">—</span> },
					{ key: 'criado', header: 'Data de Criação', sort: 'created_at', cell: (u) => formatDateOf(u.created_at) }
				]}
				actions={(u) => (
					<EditDeleteActions
						name={u.nome}
						onEdit={() => editor.edit(u)}
						onDelete={u.id !== me?.id ? () => remove(u) : undefined}
						withText
					/>
				)}
			/>

			<EditorDialog editor={editor}>
				{(user, close) => <UserDialog editing={user} isSelf={user?.id === me?.id} onClose={close} />}
			</EditorDialog>
		</div>
	)
}

export default function UsersPage() {
	return <RolePage>{(role) => (mayOpen(role, '/users') ? <UsersScreen /> : <AccessDenied {...denialOf('/users')} />)}</RolePage>
}
