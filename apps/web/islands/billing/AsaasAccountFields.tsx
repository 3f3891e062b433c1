import { KeyRound } from 'lucide-react'
import { type AsaasEnvironment, MESSAGES } from '../../../../modules/billing/model'
import { Field, PasswordInput } from '../../components/ui'
import { type GetRoute, errorText } from '../../lib/api'
import { invalidateReads } from '../../lib/query'
import { confirmAction } from '../../stores/confirm'
import { toast } from '../../stores/toast'

export interface AccountForm {
	apiKey: string
	environment: AsaasEnvironment
	webhookToken: string
}

/**
 * Saving a form whose saved key was cleared removes the key: asks first, naming what stops working. True when
 * nothing is removed or the person confirms.
 */
export function confirmKeyRemoval(savedKey: string, form: AccountForm, consequence: string): Promise<boolean> {
	if (!savedKey || form.apiKey) return Promise.resolve(true)
	return confirmAction({
		title: 'Remover a chave API',
		message: `A chave API salva será apagada e ${consequence}\nPara voltar a usar a conta será preciso informar a chave de novo.`,
		confirmLabel: 'Remover chave',
		cancelLabel: 'Voltar',
		destructive: true
	})
}

/** A webhook token Asaas accepts (40 letters and digits), drawn in this browser so it can be copied into Asaas too. */
export function drawWebhookToken(): string {
	const alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789'
	for (;;) {
		const token = [...crypto.getRandomValues(new Uint8Array(40))].map((b) => alphabet[b % alphabet.length]).join('')
		if (!/(.)\1{3}/.test(token)) return token
	}
}

/** What the environment means for the account's clients (3-billing-messaging §2). */
export function EnvironmentAlert({ environment }: { environment: AsaasEnvironment }) {
	return environment === 'production' ? (
		<div role="status" className="alert alert-warning alert-soft">
			<span>
				<strong>Produção:</strong> boletos e cobranças reais serão gerados para os seus clientes.
			</span>
		</div>
	) : (
		<div role="status" className="alert alert-info alert-soft">
			<span>
				<strong>Sandbox:</strong> ambiente de testes, nenhum boleto real é gerado.
			</span>
		</div>
	)
}

/**
 * The key, environment and webhook token of an Asaas account. A saved secret comes back masked (••••1234): left
 * as it is, the saved value stays; cleared, it is removed.
 */
export function AsaasAccountFields({
	value,
	onChange,
	disabled = false,
	keyError
}: {
	value: AccountForm
	onChange: (next: AccountForm) => void
	disabled?: boolean
	keyError?: string | null
}) {
	const set = <K extends keyof AccountForm>(key: K, v: AccountForm[K]) => onChange({ ...value, [key]: v })
	/** The props of a secret's input: trimmed as typed, never offered by the browser's autofill. */
	const secret = (key: 'apiKey' | 'webhookToken') => ({
		value: value[key],
		onChange: (v: string) => set(key, v.trim()),
		disabled,
		autoComplete: 'off'
	})
	return (
		<div className="grid gap-4 sm:grid-cols-2">
			<div className="sm:col-span-2">
				<PasswordInput label="Chave API do Asaas" placeholder="$aact_..." aria-invalid={!!keyError} {...secret('apiKey')} />
				{keyError && (
					<p className="mt-1 text-xs text-error" role="alert">
						{keyError}
					</p>
				)}
			</div>
			<Field label="Ambiente">
				<select
					className="select w-full"
					value={value.environment}
					onChange={(e) => set('environment', e.target.value as AsaasEnvironment)}
					disabled={disabled}
				>
					<option value="sandbox">Sandbox (testes)</option>
					<option value="production">Produção</option>
				</select>
			</Field>
			<div>
				<PasswordInput
					label="Token do webhook (opcional)"
					placeholder="Gerado pelo portal se ficar em branco"
					{...secret('webhookToken')}
				/>
				<button
					type="button"
					className="btn btn-ghost btn-xs mt-1"
					onClick={() => set('webhookToken', drawWebhookToken())}
					disabled={disabled}
				>
					<KeyRound className="size-3" aria-hidden="true" />
					Gerar token
				</button>
			</div>
		</div>
	)
}

/** Said instead of testing the connection when the account has no API key yet. */
export function toastKeyMissing() {
	toast({
		title: 'Configuração incompleta',
		description: MESSAGES.keyMissingForTest.replace('Configuração incompleta: ', ''),
		variant: 'destructive'
	})
}

/**
 * "Testar conexão" of an Asaas account: the answer as "Configuração válida" / "Erro na configuração", then a
 * refresh of the cached reads under `invalidate` (the test records its outcome); `fallback` when the call fails.
 */
export async function showConnectionTest(
	test: () => Promise<{ success: boolean; message: string }>,
	invalidate: readonly GetRoute[],
	fallback: string
) {
	try {
		const result = await test()
		toast({
			title: result.success ? 'Configuração válida' : 'Erro na configuração',
			description: result.message,
			variant: result.success ? 'success' : 'destructive'
		})
		invalidateReads(invalidate)
	} catch (error) {
		toast({ title: 'Erro ao testar', description: errorText(error, fallback), variant: 'destructive' })
	}
}
