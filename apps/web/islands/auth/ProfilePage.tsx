import { useStore } from '@nanostores/react'
import { KeyRound, Pencil } from 'lucide-react'
import { Suspense, lazy, useState } from 'react'
import type { ProfileUpdate, UserView } from '../../../../modules/users/model'
import { formatCnpj, formatDateOf, type Role } from '../../../../modules/core'
import { ModalActions } from '../../components/Modal'
import { PageRoot } from '../../components/PageRoot'
import { ErrorPanel, Field, InitialsAvatar } from '../../components/ui'
import { TitledSection } from '../../components/TitledSection'
import { errorText } from '../../lib/api'
import { fieldErrors, useForm, useSchemaOnDemand } from '../../lib/form'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { $user } from '../../stores/session'
const ChangePasswordDialog = lazy(() => import('./ChangePasswordDialog').then((m) => ({ default: m.ChangePasswordDialog })))

const $me = routeStore('GET /api/users/me')

export const PROFILE_ROLE_LABELS: Record<Role, string> = {
	administrador: 'Administrador do Sistema',
	gerente: 'Gerente',
	representante: 'Representante'
}

function PersonalInfo({ account }: { account: UserView }) {
	const [editing, setEditing] = useState(false)
	// The profile's rule (and zod) load when editing starts, not with the page (issue 15).
	const rule = useSchemaOnDemand(() => import('../../../../modules/users/model').then((m) => m.ProfileUpdate), 'Erro ao atualizar perfil')
	const form = useForm({
		initial: { nome: account.nome, email: account.email ?? '' },
		toInput: (v): ProfileUpdate => ({ nome: v.nome, email: v.email.trim() || null }),
		validate: (input) => (rule.schema ? fieldErrors(rule.schema, input) : {})
	})
	const { values: fields, set, errors } = form
	const nome = fields.nome
	const email = fields.email
	const setNome = (v: string) => set('nome', v)
	const setEmail = (v: string) => set('email', v)

	function cancel() {
		form.setValues({ nome: account.nome, email: account.email ?? '' })
		setEditing(false)
	}

	const save = form.submit(async (body) => {
		// Sent before the rule arrived: wait for it, and stop when it marks a field (the marks show with it).
		const schema = await rule.need()
		if (!schema || Object.keys(fieldErrors(schema, body)).length > 0) return
		const saved = await mutate(
			'PUT /api/users/me',
			{ body },
			{
				success: { title: 'Perfil atualizado' },
				errorTitle: 'Erro ao atualizar perfil',
				errorFallback: 'Erro ao atualizar perfil. Tente novamente.',
				invalidate: ['GET /api/users', 'GET /api/users/me']
			}
		)
		if (saved) {
			const current = $user.get()
			if (current) $user.set({ ...current, nome: saved.nome, email: saved.email })
			setEditing(false)
		}
	})

	return (
		<TitledSection
			id="personal-title"
			title="Informações Pessoais"
			headClassName="mb-4 flex items-center justify-between gap-2"
			aside={
				!editing && (
					<button
						type="button"
						className="btn btn-sm"
						onClick={() => {
							setEditing(true)
							rule.need()
						}}
					>
						<Pencil className="size-4" /> Editar
					</button>
				)
			}
		>
			<form className="grid gap-4 sm:grid-cols-2" onSubmit={save} noValidate>
				<Field label="Nome" className="sm:col-span-2" error={errors.nome}>
					<input
						className={`input w-full ${editing ? '' : 'bg-base-200/60'}`}
						value={nome}
						maxLength={200}
						onChange={(e) => setNome(e.target.value)}
						readOnly={!editing}
						autoComplete="name"
					/>
				</Field>
				<Field label="E-mail" error={errors.email}>
					<input
						type="email"
						className={`input w-full ${editing ? '' : 'bg-base-200/60'}`}
						value={email}
						maxLength={200}
						onChange={(e) => setEmail(e.target.value)}
						readOnly={!editing}
						placeholder={editing ? 'seu@email.com.br' : 'Não informado'}
						autoComplete="email"
					/>
				</Field>
				<Field label="CNPJ" hint="O CNPJ não pode ser alterado">
					<input className="input w-full bg-base-200" value={formatCnpj(account.cnpj)} readOnly disabled />
				</Field>
				{editing && (
					<div className="flex flex-wrap justify-end gap-2 sm:col-span-2">
						<ModalActions onCancel={cancel} pending={form.pending} label="Salvar" />
					</div>
				)}
			</form>
		</TitledSection>
	)
}

function AccountInfo({ account, onChangePassword }: { account: UserView; onChangePassword: () => void }) {
	return (
		<section className="rounded-box border border-base-300 bg-base-100 p-4 sm:p-6" aria-labelledby="account-title">
			<h3 id="account-title" className="mb-4 text-lg font-semibold">
				Informações da Conta
			</h3>
			<dl className="space-y-3 text-sm">
				<div className="flex justify-between gap-3">
					<dt className="text-base-content/70">Tipo de usuário</dt>
					<dd className="font-medium">{PROFILE_ROLE_LABELS[account.tipo]}</dd>
				</div>
				<div className="flex justify-between gap-3">
					<dt className="text-base-content/70">Data de criação</dt>
					<dd className="font-medium">{formatDateOf(account.created_at)}</dd>
				</div>
				<div className="flex items-center justify-between gap-3">
					<dt className="text-base-content/70">Status</dt>
					<dd>
						<span className="badge badge-success badge-soft">Ativa</span>
					</dd>
				</div>
			</dl>
			<button type="button" className="btn btn-outline mt-5 w-full" onClick={onChangePassword}>
				<KeyRound className="size-4" /> Alterar Senha
			</button>
		</section>
	)
}

function ProfileScreen() {
	const { data, loading, error } = useStore($me)
	const [passwordOpen, setPasswordOpen] = useState(false)
	if (error) return <ErrorPanel title="Erro ao carregar perfil" message={errorText(error)} onRetry={() => $me.revalidate()} />
	if (loading || !data) return <div className="skeleton h-72 w-full" role="status" aria-busy="true" aria-label="Carregando" />
	return (
		<div className="space-y-6">
			<div className="flex items-center gap-4 rounded-box border border-base-300 bg-base-100 p-4 sm:p-6">
				<InitialsAvatar name={data.nome} size="lg" />
				<div className="min-w-0">
					<p className="truncate text-xl font-bold">{data.nome}</p>
					<p className="truncate text-sm text-base-content/70">{data.email ?? formatCnpj(data.cnpj)}</p>
				</div>
			</div>
			<div className="grid gap-6 lg:grid-cols-3">
				<div className="lg:col-span-2">
					<PersonalInfo key={data.id} account={data} />
				</div>
				<AccountInfo account={data} onChangePassword={() => setPasswordOpen(true)} />
			</div>
			{passwordOpen && (
				<Suspense fallback={null}>
					<ChangePasswordDialog onClose={() => setPasswordOpen(false)} />
				</Suspense>
			)}
		</div>
	)
}

export default function ProfilePage() {
	return (
		<PageRoot>
			<ProfileScreen />
		</PageRoot>
	)
}
