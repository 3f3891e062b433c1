import { ChangePasswordBody } from '../../../../modules/users/model'
import { FormDialog } from '../../components/Modal'
import { PasswordInput } from '../../components/ui'
import { type FieldErrors, useZodForm } from '../../lib/form'
import { mutate } from '../../lib/mutate'

/** The confirmation, which only the screen knows of (2-administration §5.6): filled, and equal to the new password. */
export function confirmationError(next: string, confirm: string): FieldErrors {
	if (!confirm) return { confirm: 'Todos os campos são obrigatórios' }
	if (next !== confirm) return { confirm: 'A nova senha e confirmação não coincidem' }
	return {}
}

/** The three password boxes: the form's key, the label, the key of its message (the API's name) and the browser's hint. */
const PASSWORDS = [
	{ key: 'current', label: 'Senha atual', error: 'currentPassword', autoComplete: 'current-password' },
	{ key: 'next', label: 'Nova senha', error: 'newPassword', autoComplete: 'new-password' },
	{ key: 'confirm', label: 'Confirmar nova senha', error: 'confirm', autoComplete: 'new-password' }
] as const

/** Alterar Senha (2-administration §2.7): current, new and confirmation, each with show/hide and its message beside it. */
export function ChangePasswordDialog({ onClose }: { onClose: () => void }) {
	const form = useZodForm({
		schema: ChangePasswordBody,
		initial: { current: '', next: '', confirm: '' },
		toInput: (v) => ({ currentPassword: v.current, newPassword: v.next === '' ? (undefined as unknown as string) : v.next }),
		check: (v) => confirmationError(v.next, v.confirm)
	})
	const { values, set, errors } = form
	return (
		<FormDialog
			title="Alterar Senha"
			form={form}
			send={(body) =>
				mutate(
					'POST /api/users/change-password',
					{ body },
					{ success: { title: 'Sucesso', description: 'Senha alterada com sucesso!' }, errorTitle: 'Erro ao alterar senha' }
				)
			}
			onClose={onClose}
			submitLabel="Alterar Senha"
		>
			{PASSWORDS.map((p) => (
				<PasswordInput
					key={p.key}
					label={p.label}
					value={values[p.key]}
					onChange={(v) => set(p.key, v)}
					error={errors[p.error]}
					autoComplete={p.autoComplete}
				/>
			))}
			<p className="text-xs text-base-content/70">
				A nova senha deve ter pelo menos 6 caracteres. Suas outras sessões abertas serão encerradas.
			</p>
		</FormDialog>
	)
}
