import { ROLE_LABELS, ROLES, type Role, formatCnpj, maskCnpj } from '../../../../modules/core'
import { UserCreate, UserUpdate, type UserView } from '../../../../modules/users/model'
import { Modal, ModalActions } from '../../components/Modal'
import { Field, TextField } from '../../components/ui'
import { useZodForm } from '../../lib/form'
import { mutate } from '../../lib/mutate'

/** Novo Usuário / Editar Usuário (2-administration §5.5), every field checked beside it with the server's schema. */
export default function UserDialog({ editing, isSelf, onClose }: { editing: UserView | null; isSelf: boolean; onClose: () => void }) {
	const form = useZodForm({
		schema: editing ? UserUpdate : UserCreate,
		initial: {
			nome: editing?.nome ?? '',
			cnpj: editing ? formatCnpj(editing.cnpj) : '',
			tipo: (editing?.tipo ?? 'representante') as Role,
			representante_id: editing?.representante_id ?? '',
			email: editing?.email ?? '',
			senha: '',
			ativo: editing?.ativo ?? true
		},
		toInput: (v) => ({
			cnpj: v.cnpj,
			nome: v.nome,
			tipo: v.tipo,
			representante_id: v.tipo === 'gerente' && v.representante_id.trim() ? v.representante_id.trim() : null,
			email: v.email.trim() || null,
			...(editing ? { ativo: v.ativo, ...(v.senha ? { senha: v.senha } : {}) } : { senha: v.senha === '' ? undefined : v.senha })
		})
	})
	const { values, set, errors } = form
	const submit = form.submit(async (body) => {
		const result = editing
			? await mutate(
					'PUT /api/users/:id',
					{ params: { id: editing.id }, body },
					{ success: { title: 'Usuário atualizado' }, errorTitle: 'Erro ao atualizar usuário', invalidate: ['/api/users'] }
				)
			: await mutate(
					'POST /api/users',
					{ body: body as UserCreate },
					{ success: { title: 'Usuário criado' }, errorTitle: 'Erro ao criar usuário', invalidate: ['/api/users'] }
				)
		if (result) onClose()
	})

	return (
		<Modal
			open
			onClose={onClose}
			title={editing ? 'Editar Usuário' : 'Novo Usuário'}
			footer={
				<ModalActions onCancel={onClose} form="user-form" pending={form.pending} label={editing ? 'Salvar alterações' : 'Criar usuário'} />
			}
		>
			<form id="user-form" className="grid gap-4 sm:grid-cols-2" onSubmit={submit} noValidate>
				<TextField
					label="Nome *"
					className="sm:col-span-2"
					error={errors.nome}
					value={values.nome}
					maxLength={200}
					autoComplete="off"
					onValue={(v) => set('nome', v)}
				/>
				<TextField
					label="CNPJ *"
					error={errors.cnpj}
					value={values.cnpj}
					maxLength={18}
					placeholder="00.000.000/0000-00"
					autoComplete="off"
					onValue={(v) => set('cnpj', maskCnpj(v))}
				/>
				<Field label="Tipo *" error={errors.tipo}>
					<select className="select w-full" value={values.tipo} onChange={(e) => set('tipo', e.target.value as Role)} disabled={isSelf}>
						{ROLES.map((r) => (
							<option key={r} value={r}>
								{ROLE_LABELS[r]}
							</option>
						))}
					</select>
				</Field>
				{values.tipo === 'gerente' && (
					<TextField
						label="ID do representante"
						hint="Opcional; apenas para gerentes."
						className="sm:col-span-2"
						error={errors.representante_id}
						value={values.representante_id}
						maxLength={50}
						onValue={(v) => set('representante_id', v)}
					/>
				)}
				<TextField
					label="E-mail"
					className="sm:col-span-2"
					error={errors.email}
					type="email"
					value={values.email}
					maxLength={200}
					autoComplete="off"
					onValue={(v) => set('email', v)}
				/>
				<TextField
					label={editing ? 'Nova senha' : 'Senha *'}
					hint={editing ? 'Deixe em branco para manter a senha atual.' : 'No mínimo 6 caracteres.'}
					className="sm:col-span-2"
					error={errors.senha}
					type="password"
					value={values.senha}
					autoComplete="new-password"
					onValue={(v) => set('senha', v)}
				/>
				{editing && !isSelf && (
					<label className="flex items-center gap-3 sm:col-span-2">
						<input
							type="checkbox"
							className="toggle toggle-success"
							checked={values.ativo}
							onChange={(e) => set('ativo', e.target.checked)}
						/>
						<span className="text-sm">Usuário ativo</span>
					</label>
				)}
				{values.tipo === 'representante' && !editing && (
					<p className="text-xs text-base-content/70 sm:col-span-2">
						O representante entra com este CNPJ. Se ainda não existir um cadastro de representante com ele, um cadastro básico é criado.
					</p>
				)}
			</form>
		</Modal>
	)
}
