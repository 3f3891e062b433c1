import { isValidCnpj, maskCnpj, normalizeCnpj } from '../../../modules/core'
import { flashToast, toast } from '../stores/toast'
import { ApiError, call, errorText } from './api'
import type { FieldErrors } from './form'

/** Maps a failed login to the toasts of 1-core §8 'Session'. */
function loginFailureToast(error: unknown) {
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
function loginErrors(input: { cnpj: string; senha: string }): FieldErrors {
	const errors: FieldErrors = {}
	if (input.cnpj === '') errors.cnpj = 'CNPJ é obrigatório.'
	else if (!isValidCnpj(input.cnpj)) errors.cnpj = 'CNPJ inválido: verifique os dígitos.'
	if (!input.senha) errors.senha = 'Senha é obrigatória.'
	return errors
}

/**
 * Makes components/LoginForm.astro answer: the CNPJ masked as typed, the password shown or hidden, every invalid
 * field marked beside it once the form was sent (and re-checked as it is corrected), then the login.
 */
export function startLoginForm() {
	const form = document.querySelector<HTMLFormElement>('#login-form')
	if (!form) return
	const cnpj = form.querySelector<HTMLInputElement>('input[name="cnpj"]') as HTMLInputElement
	const senha = form.querySelector<HTMLInputElement>('input[name="senha"]') as HTMLInputElement
	const submit = form.querySelector<HTMLButtonElement>('button[type="submit"]') as HTMLButtonElement
	const toggle = form.querySelector<HTMLButtonElement>('[data-action="toggle-password"]') as HTMLButtonElement
	const part = (name: string) => form.querySelector(`[data-part="${name}"]`) as Element
	const fields = { cnpj, senha }
	let submitted = false

	const input = () => ({ cnpj: normalizeCnpj(cnpj.value), senha: senha.value })
	const mark = () => {
		const errors = submitted ? loginErrors(input()) : {}
		for (const [name, field] of Object.entries(fields)) {
			const message = document.getElementById(`login-${name}-error`) as HTMLElement
			const error = errors[name]
			message.hidden = !error
			message.textContent = error ?? ''
			if (error) field.setAttribute('aria-invalid', 'true')
			else field.removeAttribute('aria-invalid')
		}
		return errors
	}
	const setPending = (pending: boolean) => {
		submit.disabled = pending
		part('pending').classList.toggle('hidden', !pending)
		part('idle').classList.toggle('hidden', pending)
		part('label').textContent = pending ? 'Entrando...' : 'Entrar no Sistema'
	}

	cnpj.addEventListener('input', () => {
		cnpj.value = maskCnpj(cnpj.value)
		mark()
	})
	senha.addEventListener('input', mark)
	toggle.addEventListener('click', () => {
		const visible = senha.type === 'password'
		senha.type = visible ? 'text' : 'password'
		toggle.setAttribute('aria-pressed', String(visible))
		toggle.setAttribute('aria-label', `${visible ? 'Ocultar' : 'Mostrar'} senha`)
		part('password-hidden').classList.toggle('hidden', visible)
		part('password-shown').classList.toggle('hidden', !visible)
	})
	form.addEventListener('submit', async (event) => {
		event.preventDefault()
		submitted = true
		if (Object.keys(mark()).length > 0) {
			// Take the person to the first marked field.
			form.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus()
			return
		}
		setPending(true)
		try {
			const { user } = await call('POST /api/auth/login', { body: input() })
			flashToast({ title: 'Login realizado com sucesso', description: `Bem-vindo, ${user.nome}!`, variant: 'success' })
			window.location.assign('/')
		} catch (error) {
			toast({ ...loginFailureToast(error), variant: 'destructive' })
			setPending(false)
		}
	})

	// Anything typed before the script ran (the fields were read-only) is none; from now on the form answers.
	cnpj.value = maskCnpj(cnpj.value)
	cnpj.readOnly = false
	senha.readOnly = false
	submit.disabled = false
}
