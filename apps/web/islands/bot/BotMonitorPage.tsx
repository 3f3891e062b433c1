import { useStore } from '@nanostores/react'
import { Bot, MessageSquare, RefreshCw, Send, Webhook } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { botRelativeTime } from '../../../../modules/bot/model'
// The API's own checks, zod-free: this form loads no schema (issue 15).
import { whatsappMessageProblems } from '../../../../modules/core'
import { PageRoot } from '../../components/PageRoot'
import { ErrorPanel, Field, StatCard, StatGrid } from '../../components/ui'
import { errorText } from '../../lib/api'
import { usePending } from '../../lib/hooks'
import { mutate } from '../../lib/mutate'
import { LIVE_PACE, polling, routeStore } from '../../lib/query'
import { BotToolForm, SessionRows } from './sessions'
import { WhatsappPhoneField } from '../../components/WhatsappPhoneField'

/** The monitor refreshes every 30 s (§9). */
const $monitor = routeStore('GET /api/whatsapp/bot/status', undefined, polling(LIVE_PACE.botMonitor))

const CONNECTION_LABELS: Record<string, string> = {
	open: 'WhatsApp conectado',
	close: 'WhatsApp desconectado',
	connecting: 'WhatsApp conectando',
	refused: 'WhatsApp recusou a conexão'
}

function TestBot() {
	const [phone, setPhone] = useState('')
	const [message, setMessage] = useState('Oi')
	const [replies, setReplies] = useState<string[] | null>(null)
	const [tried, setTried] = useState(false)
	const errors = tried ? whatsappMessageProblems({ phone, message }) : {}
	const [pending, send] = usePending(async () => {
		const result = await mutate(
			'POST /api/whatsapp/bot/test',
			{ body: { phone, message } },
			{
				success: { title: 'Teste enviado', description: (r) => r.message },
				errorTitle: 'Erro no teste',
				errorFallback: 'Falha ao testar o bot.',
				invalidate: [
					'GET /api/whatsapp/bot/status',
					'GET /api/whatsapp/bot-status',
					'GET /api/whatsapp/paused-conversations',
					'GET /api/whatsapp/sessions'
				]
			}
		)
		if (result) setReplies(result.replies)
	})

	async function test(e: FormEvent) {
		e.preventDefault()
		setTried(true)
		if (Object.keys(whatsappMessageProblems({ phone, message })).length > 0) return
		await send()
	}

	return (
		<BotToolForm title="Testar Bot" icon={<Send className="size-5" aria-hidden="true" />} onSubmit={test}>
			<p className="text-sm text-base-content/70">
				A mensagem passa pelo bot como se esse telefone a tivesse enviado; as respostas vão para ele pelo WhatsApp e aparecem aqui.
			</p>
			<div className="grid gap-3 sm:grid-cols-[14rem_1fr]">
				<WhatsappPhoneField label="Telefone do teste" value={phone} onChange={setPhone} error={errors.phone} />
				<Field label="Mensagem do teste" error={errors.message}>
					<input className="input w-full" value={message} onChange={(e) => setMessage(e.target.value)} />
				</Field>
			</div>
			<div className="flex justify-end">
				<button type="submit" className="btn btn-primary" disabled={pending}>
					{pending ? <span className="loading loading-spinner loading-sm" /> : <Send className="size-4" aria-hidden="true" />}
					Testar
				</button>
			</div>
			{replies && (
				<section aria-label="Respostas do bot" className="space-y-2">
					{replies.length === 0 && <p className="text-sm text-base-content/70">O bot não respondeu.</p>}
					{replies.map((r, i) => (
						<p key={i} className="max-w-prose whitespace-pre-wrap rounded-box bg-success/10 p-3 text-sm">
							{r}
						</p>
					))}
				</section>
			)}
		</BotToolForm>
	)
}

function Content() {
	const { data, error } = useStore($monitor)
	const now = new Date()
	if (error) return <ErrorPanel title="Erro ao carregar o bot" message={errorText(error)} onRetry={() => $monitor.revalidate()} />
	const hook = data?.webhook
	return (
		<div className="space-y-5">
			<div className="flex justify-end">
				<button type="button" className="btn" onClick={() => $monitor.revalidate()}>
					<RefreshCw className="size-4" aria-hidden="true" /> Atualizar
				</button>
			</div>
			<StatGrid count={3} className="grid gap-4 sm:grid-cols-3">
				{data && (
					<>
						<StatCard title="Sessões Ativas" value={data.activeSessions} hint="Conversas dos últimos 30 minutos" icon={<MessageSquare />} />
						<StatCard
							title="Status do Bot"
							value={data.enabled ? 'Ativo' : 'Inativo'}
							tone={data.enabled ? 'success' : 'error'}
							icon={<Bot />}
							hint={
								<>
									{data.connection.state ? (CONNECTION_LABELS[data.connection.state] ?? data.connection.state) : 'Conexão desconhecida'}
									{' · '}
									Último evento: {data.lastEventAt ? botRelativeTime(data.lastEventAt, now) : 'nenhum'}
								</>
							}
						/>
						<StatCard
							title="Webhook"
							value={<span className="font-mono text-base">{data.webhook.path}</span>}
							hint="Evolution API"
							icon={<Webhook />}
						/>
					</>
				)}
			</StatGrid>
			{data?.warning && (
				<div role="alert" className="alert alert-warning alert-soft">
					<span>{data.warning}</span>
				</div>
			)}
			<TestBot />
			<section className="space-y-3">
				<h3 className="text-lg font-semibold">Sessões ativas</h3>
				{data ? <SessionRows sessions={data.sessions} now={now} showPause /> : <div className="skeleton h-24 w-full" />}
			</section>
			{hook && (
				<section className="space-y-3 rounded-box border border-base-300 bg-base-100 p-4 sm:p-5">
					<h3 className="text-lg font-semibold">Configuração do webhook</h3>
					<p className="text-sm">
						{hook.status === 'configurado'
							? '✓ O portal configurou o webhook na instância da Evolution API.'
							: (hook.message ??
								'O portal configura o webhook ao ativar o bot ou salvar a Evolution API, quando PUBLIC_URL está definido.')}
					</p>
					<p className="text-sm text-base-content/70">Para configurar à mão na Evolution API:</p>
					<dl className="grid gap-2 text-sm sm:grid-cols-[12rem_1fr]">
						<dt className="font-medium">URL</dt>
						<dd className="break-all font-mono">{hook.url ?? `https://seu-portal${hook.path}`}</dd>
						<dt className="font-medium">Header (v2)</dt>
						<dd className="break-all font-mono">
							{hook.header}: {hook.secret}
						</dd>
						<dt className="font-medium">URL com token (v1)</dt>
						<dd className="break-all font-mono">{hook.urlWithToken ?? `https://seu-portal${hook.path}?token=${hook.secret}`}</dd>
						<dt className="font-medium">Eventos</dt>
						<dd className="font-mono">messages.upsert (MESSAGES_UPSERT), connection.update (CONNECTION_UPDATE)</dd>
					</dl>
				</section>
			)}
			<section className="rounded-box border border-base-300 bg-base-100 p-4 sm:p-5">
				<h3 className="mb-2 text-lg font-semibold">O que o bot faz</h3>
				<ul className="list-inside list-disc space-y-1 text-sm">
					<li>Pede e valida o CNPJ (numérico ou alfanumérico, com dígitos verificadores)</li>
					<li>Mostra dados só ao telefone cadastrado da empresa</li>
					<li>Situação da licença por sistema, vencimento e dias restantes</li>
					<li>Parcelas em aberto e segunda via de boleto (link, linha digitável e PIX copia e cola)</li>
					<li>Chave PIX do fornecedor para pagamento</li>
					<li>Liberação por 24 horas quando a licença venceu</li>
					<li>Passa a conversa a um atendente (opção 5 ou quando alguém escreve pelo celular do WhatsApp)</li>
					<li>PARAR e VOLTAR para os avisos automáticos</li>
				</ul>
			</section>
		</div>
	)
}

/** Bot WhatsApp (3-billing-messaging §2): the monitor. */
export default function BotMonitorPage() {
	return (
		<PageRoot>
			<Content />
		</PageRoot>
	)
}
