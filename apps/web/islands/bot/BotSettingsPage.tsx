import { useStore } from '@nanostores/react'
import { Clock, Save } from 'lucide-react'
import type { FormEvent } from 'react'
import { useFormFromData, usePending } from '../../lib/hooks'
import { pixMessage } from '../../../../modules/bot/model'
import { classifyPixKey, pixKeyHint } from '../../../../modules/core'
import { PageRoot } from '../../components/PageRoot'
import { ErrorPanel, Field } from '../../components/ui'
import { errorText } from '../../lib/api'
import { mutate } from '../../lib/mutate'
import { $configuracoes } from '../../lib/settings'
import { toast } from '../../stores/toast'

function Content() {
	const config = useStore($configuracoes)
	const saved = (chave: string) => config.data?.find((e) => e.chave === chave)?.valor ?? ''
	const [typedKey, setKey] = useFormFromData(config.data, () => saved('bot_chave_pix'))
	const [pending, savePixKey] = usePending(() =>
		mutate(
			'POST /api/configuracoes',
			{ body: { chave: 'bot_chave_pix', valor: key.replace(/\s+/g, '') } },
			{
				success: { title: 'Configurações salvas!' },
				errorTitle: 'Erro ao salvar',
				errorFallback: 'Erro interno do servidor',
				invalidate: ['GET /api/configuracoes']
			}
		)
	)
	const key = typedKey ?? ''
	const check = classifyPixKey(key)
	const vendor = saved('app.fornecedor_nome') || 'K Sistemas'

	async function save(e: FormEvent) {
		e.preventDefault()
		if (!check.valid) {
			const [title, description] = check.message.split(' - ')
			toast({ title, description, variant: 'destructive' })
			return
		}
		await savePixKey()
	}

	if (config.error)
		return (
			<ErrorPanel title="Erro ao carregar configurações" message={errorText(config.error)} onRetry={() => $configuracoes.revalidate()} />
		)
	if (typedKey === null) return <div className="skeleton h-80 w-full" role="status" aria-busy="true" aria-label="Carregando" />
	const typed = key.trim() !== ''
	return (
		<div className="grid gap-5 lg:grid-cols-2">
			<form className="space-y-4 rounded-box border border-base-300 bg-base-100 p-4 sm:p-6" onSubmit={save} noValidate>
				<h3 className="text-lg font-semibold">Pagamento por PIX</h3>
				<Field
					label="Chave PIX"
					hint="CPF, CNPJ, e-mail, telefone ou chave aleatória. É a chave que o bot envia na opção 4 (Pagar por PIX)."
				>
					<input
						className="input w-full"
						value={key}
						onChange={(e) => setKey(e.target.value)}
						placeholder="00.000.000/0001-00"
						disabled={!config.data}
						autoComplete="off"
					/>
				</Field>
				{typed && (
					<p role="status" className={`text-sm font-medium ${check.valid ? 'text-success' : 'text-error'}`}>
						{pixKeyHint(check)}
					</p>
				)}
				<div className="flex justify-end">
					<button type="submit" className="btn btn-primary" disabled={pending || !config.data}>
						{pending ? <span className="loading loading-spinner loading-sm" /> : <Save className="size-4" aria-hidden="true" />}
						Salvar Configurações
					</button>
				</div>
			</form>
			<section className="space-y-3 rounded-box border border-base-300 bg-base-100 p-4 sm:p-6" aria-label="Prévia da mensagem">
				<h3 className="text-lg font-semibold">Prévia da mensagem no WhatsApp</h3>
				<p className="max-w-prose whitespace-pre-wrap rounded-box bg-success/10 p-3 text-sm">
					{pixMessage(check.valid ? check : null, vendor)}
				</p>
			</section>
			<section className="rounded-box border border-dashed border-base-300 bg-base-100 p-4 sm:p-6 lg:col-span-2">
				<h3 className="flex items-center gap-2 font-semibold">
					<Clock className="size-5" aria-hidden="true" /> Horário de atendimento e mensagens automáticas
				</h3>
				<p className="mt-1 text-sm text-base-content/70">
					Em desenvolvimento: em breve será possível definir o horário de atendimento e as mensagens automáticas do bot.
				</p>
			</section>
		</div>
	)
}

/** Config Bot (3-billing-messaging §2): the vendor's PIX key with the live check and the preview of the bot's message. */
export default function BotSettingsPage() {
	return (
		<PageRoot>
			<Content />
		</PageRoot>
	)
}
