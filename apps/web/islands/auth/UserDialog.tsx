import { ROLE_LABELS, ROLES, type Role, formatCnpj } from '../../../../modules/core'
import { UserCreate, UserUpdate, type UserView } from '../../../../modules/users/model'
import { CnpjField, EmailField } from '../../components/ContactFields'
import { FormDialog } from '../../components/Modal'
import { SelectField, TextField, ToggleField } from '../../components/ui'
import { useZodForm } from '../../lib/form'
import { saveRecord } from '../../lib/mutate'

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
	const { values, set, errors, text, toggle } = form
	return (
		<FormDialog
			title={editing ? 'Editar Usuário' : 'Novo Usuário'}
			form={form}
			send={(body) =>
				saveRecord({ create: 'POST /api/users', update: 'PUT /api/users/:id' }, editing && { id: editing.id }, body as UserCreate, {
					title: 'Usuário',
					noun: 'usuário',
					invalidate: ['GET /api/users', 'GET /api/users/me']
				})
			}
			onClose={onClose}
			submitLabel={editing ? 'Salvar alterações' : 'Criar usuário'}
			className="grid gap-4 sm:grid-cols-2"
		>
			<TextField label="Nome *" className="sm:col-span-2" maxLength={200} autoComplete="off" {...text('nome')} />
			<CnpjField autoComplete="off" {...text('cnpj')} />
			<SelectField
				label="Tipo *"
				error={errors.tipo}
				value={values.tipo}
				onValue={(v) => set('tipo', v as Role)}
				disabled={isSelf}
				options={ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] }))}
			/>
			{values.tipo === 'gerente' && (
				<TextField
					label="ID do representante"
					hint="Opcional; apenas para gerentes."
					className="sm:col-span-2"
					maxLength={50}
					{...text('representante_id')}
				/>
			)}
			<EmailField className="sm:col-span-2" autoComplete="off" {...text('email')} />
			<TextField
				label={editing ? 'Nova senha' : 'Senha *'}
				hint={editing ? 'Deixe em branco para manter a senha atual.' : 'No mínimo 6 caracteres.'}
				className="sm:col-span-2"
				type="password"
				autoComplete="new-password"
				{...text('senha')}
			/>
			{editing && !isSelf && (
				<ToggleField label="Usuário ativo" className="flex items-center gap-3 text-sm sm:col-span-2" {...toggle('ativo')} />
			)}
			{values.tipo === 'representante' && !editing && (
				<p className="text-xs text-base-content/70 sm:col-span-2">
					O representante entra com este CNPJ. Se ainda não existir um cadastro de representante com ele, um cadastro básico é criado.
				</p>
			)}
		</FormDialog>
	)
}
