import { type FormEvent, useState } from 'react'
import { Modal, ModalActions } from '../../components/Modal'
import { FormError, PasswordInput } from '../../components/ui'
import { mutate } from '../../lib/mutate'

/** The password check of 2-administration §5.6, in the order the person meets it; null when fine. */
export function passwordChangeError(current: string, next: string, confirm: string): string | null {
	if (!current || !next || !confirm) return 'Todos os campos são obrigatórios'
	if (next !== confirm) return 'A nova senha e confirmação não coincidem'
	if (next.length < 6) return 'A nova senha deve ter pelo menos 6 caracteres'
	return null
}

/** Alterar Senha (2-administration §2.7): current, new and confirmation, each with show/hide. */
export function ChangePasswordDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
	const [current, setCurrent] = useState('')
	const [next, setNext] = useState('')
	const [confirm, setConfirm] = useState('')
	const [error, setError] = useState<string | null>(null)
	const [pending, setPending] = useState(false)

	function close() {
		setCurrent('')
		setNext('')
		setConfirm('')
		setError(null)
		onClose()
	}

	async function submit(e: FormEvent) {
		e.preventDefault()
		const problem = passwordChangeError(current, next, confirm)
		setError(problem)
		if (problem) return
		setPending(true)
		const ok = await mutate(
			'POST /api/users/change-password',
			{ body: { currentPassword: current, newPassword: next } },
			{ success: { title: 'Sucesso', description: 'Senha alterada com sucesso!' }, errorTitle: 'Erro ao alterar senha' }
		)
		setPending(false)
		if (ok) close()
	}

	return (
		<Modal
			open={open}
			onClose={close}
			title="Alterar Senha"
			footer={<ModalActions onCancel={close} form="change-password-form" pending={pending} label="Alterar Senha" />}
		>
			<form id="change-password-form" className="space-y-4" onSubmit={submit} noValidate>
				<PasswordInput label="Senha atual" value={current} onChange={setCurrent} autoComplete="current-password" />
				<PasswordInput label="Nova senha" value={next} onChange={setNext} autoComplete="new-password" />
				<PasswordInput label="Confirmar nova senha" value={confirm} onChange={setConfirm} autoComplete="new-password" />
				<p className="text-xs text-base-content/60">
					A nova senha deve ter pelo menos 6 caracteres. Suas outras sessões abertas serão encerradas.
				</p>
				<FormError message={error} />
			</form>
		</Modal>
	)
}
