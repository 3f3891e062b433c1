import { LogIn } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { maskCnpj, normalizeCnpj } from '../../../../modules/core'
import { FormError, PasswordInput } from '../../components/ui'
import { ApiError, call, errorText } from '../../lib/api'
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

export default function LoginForm() {
	const [cnpj, setCnpj] = useState('')
	const [senha, setSenha] = useState('')
	const [pending, setPending] = useState(false)
	const [fieldError, setFieldError] = useState<string | null>(null)
	const hydrated = useHydrated()

	async function submit(e: FormEvent) {
		e.preventDefault()
		if (!cnpj.trim() || !senha) {
			setFieldError(!cnpj.trim() ? 'Informe o CNPJ.' : 'Informe a senha.')
			return
		}
		setFieldError(null)
		setPending(true)
		try {
			const { user } = await call('POST /api/auth/login', { body: { cnpj: normalizeCnpj(cnpj), senha } })
			flashToast({ title: 'Login realizado com sucesso', description: `Bem-vindo, ${user.nome}!`, variant: 'success' })
			window.location.assign('/')
		} catch (error) {
			toast({ ...loginFailureToast(error), variant: 'destructive' })
			setPending(false)
		}
	}

	return (
		<form onSubmit={submit} className="space-y-5" noValidate>
			<label className="block">
				<span className="mb-1 block text-sm font-medium">CNPJ</span>
				<input
					name="cnpj"
					className="input w-full"
					inputMode="text"
					autoComplete="username"
					placeholder="00.000.000/0000-00"
					maxLength={18}
					value={cnpj}
					onChange={(e) => setCnpj(maskCnpj(e.target.value))}
					required
					readOnly={!hydrated}
					autoFocus
				/>
			</label>
			<PasswordInput
				label="Senha"
				name="senha"
				autoComplete="current-password"
				placeholder="Sua senha"
				value={senha}
				onChange={setSenha}
				required
				readOnly={!hydrated}
			/>
			<FormError message={fieldError} />
			<button type="submit" className="btn btn-primary w-full" disabled={pending || !hydrated}>
				{pending ? <span className="loading loading-spinner loading-sm" /> : <LogIn className="size-4" />}
				{pending ? 'Entrando...' : 'Entrar no Sistema'}
			</button>
		</form>
	)
}
