import { LogIn } from 'lucide-react'
import { useState } from 'react'
import { isValidCnpj, maskCnpj, normalizeCnpj } from '../../../../modules/core'
import { PasswordInput, TextField } from '../../components/ui'
import { ApiError, call, errorText } from '../../lib/api'
import { type FieldErrors, useForm } from '../../lib/form'
import { useHydrated } from '../../lib/hooks'
import { flashToast, toast } from '../../stores/toast'

/** Maps a failed login to the toasts of 1-core §8 'Session'. */
export function loginFailureToast(error: unknown) {
	const message = error instanceof ApiError ? (error.serverMessage ?? '') : ''
	const lower = message.toLowerCase()
	if (lower.includes('senha')) {
		return { title: 'Senha incorreta', description: 'A senha informada está incorreta. Verifique e tente novamente.' }
	}
	if (lower.includes('usuário') || lower.includes('não encontrado')) {
		return { title: 'CNPJ não encontrado', description: 'Este CNPJ não está cadastrado no sistema.' }
	}
	return { title: 'Erro no login', description: errorText(error, 'Verifique suas credenciais e tente novamente') }
}

/**
 * The rules of LoginBody (the CNPJ field's, a password given), in the same words, without its schema: the login
 * page stays within its 90 KB of JavaScript, and the schema library alone is a quarter of that.
 */
export function loginErrors(input: { cnpj: string; senha: string }): FieldErrors {
	const errors: FieldErrors = {}
	if (input.cnpj === '') errors.cnpj = 'CNPJ é obrigatório.'
	else if (!isValidCnpj(input.cnpj)) errors.cnpj = 'CNPJ inválido: verifique os dígitos.'
	if (!input.senha) errors.senha = 'Senha é obrigatória.'
	return errors
}

export default function LoginForm() {
	const hydrated = useHydrated()
	const form = useForm({
		initial: { cnpj: '', senha: '' },
		toInput: (v) => ({ cnpj: normalizeCnpj(v.cnpj), senha: v.senha }),
		validate: loginErrors
	})
	const { values, set, errors } = form
	const [pending, setPending] = useState(false)

	const submit = form.submit(async (body) => {
		setPending(true)
		try {
			const { user } = await call('POST /api/auth/login', { body })
			flashToast({ title: 'Login realizado com sucesso', description: `Bem-vindo, ${user.nome}!`, variant: 'success' })
			window.location.assign('/')
		} catch (error) {
			toast({ ...loginFailureToast(error), variant: 'destructive' })
			setPending(false)
		}
	})

	return (
		<form onSubmit={submit} className="space-y-5" noValidate>
			<TextField
				label="CNPJ"
				error={errors.cnpj}
				name="cnpj"
				inputMode="text"
				autoComplete="username"
				placeholder="00.000.000/0000-00"
				maxLength={18}
				value={values.cnpj}
				required
				readOnly={!hydrated}
				autoFocus
				onValue={(v) => set('cnpj', maskCnpj(v))}
			/>
			<PasswordInput
				label="Senha"
				name="senha"
				autoComplete="current-password"
				placeholder="Sua senha"
				value={values.senha}
				onChange={(v) => set('senha', v)}
				error={errors.senha}
				required
				readOnly={!hydrated}
			/>
			<button type="submit" className="btn btn-primary w-full" disabled={pending || !hydrated}>
				{pending ? <span className="loading loading-spinner loading-sm" /> : <LogIn className="size-4" />}
				{pending ? 'Entrando...' : 'Entrar no Sistema'}
			</button>
		</form>
	)
}
