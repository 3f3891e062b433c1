import { useStore } from '@nanostores/react'
import { Bot, MessageSquare, PauseCircle, Play, Power, UserRound } from 'lucide-react'
import { type FormEvent, useState } from 'react'
import { formatSessionPhone } from '../../../../modules/bot/model'
// The API's own checks, zod-free: these forms load no schema (issue 15).
import { whatsappMessageProblems } from '../../../../modules/core'
import { PageRoot } from '../../components/PageRoot'
import { EmptyState, ErrorPanel, Field, StatCard, StatGrid } from '../../components/ui'
import { type GetRoute, errorText } from '../../lib/api'
import { usePending } from '../../lib/hooks'
import { confirmThenMutate, mutate } from '../../lib/mutate'
import { LIVE_PACE, polling, routeStore } from '../../lib/query'
import { BotPhoneInput, BotToolForm, SessionRows, WaitingFlag } from './sessions'
import { WhatsappPhoneField } from '../../components/WhatsappPhoneField'

/** Bot status and paused list every 5 s, sessions every 10 s (§9). */
const $status = routeStore('GET /api/whatsapp/bot-status', undefined, polling(LIVE_PACE.botStatus))
const $paused = routeStore('GET /api/whatsapp/paused-conversations', undefined, polling(LIVE_PACE.botPaused))
const $sessions = routeStore('GET /api/whatsapp/sessions', undefined, polling(LIVE_PACE.botSessions))

const INVALIDATE: readonly GetRoute[] = [
	'GET /api/whatsapp/bot/status',
	'GET /api/whatsapp/bot-status',
	'GET /api/whatsapp/paused-conversations',
	'GET /api/whatsapp/sessions'
]

async function resume(phone: string) {
	return mutate(
		'POST /api/whatsapp/resume-conversation',
		{ body: { phone } },
		{ success: { title: 'Conversa retomada com sucesso' }, errorTitle: 'Erro ao retomar conversa', invalidate: INVALIDATE }
	)
}

function Control({ enabled }: { enabled: boolean }) {
	const [pending, toggle] = usePending(() =>
		enabled
			? confirmThenMutate(
					{
						title: 'Desligar o bot',
						message:
							'Com o bot desligado, as mensagens dos clientes no WhatsApp ficam sem resposta automática até que ele seja ligado de novo.',
						confirmLabel: 'Desligar bot',
						cancelLabel: 'Voltar',
						destructive: true
					},
					'POST /api/whatsapp/bot-disable',
					{},
					{ success: { title: 'Bot desativado com sucesso' }, errorTitle: 'Erro ao desativar bot', invalidate: INVALIDATE }
				)
			: mutate(
					'POST /api/whatsapp/bot-enable',
					{},
					{ success: { title: 'Bot ativado com sucesso' }, errorTitle: 'Erro ao ativar bot', invalidate: INVALIDATE }
				)
	)
	return (
		<div className="rounded-box border border-base-300 bg-base-100 p-3 sm:p-5">
			<p className="text-xs text-base-content/70 sm:text-sm">Controle</p>
			<label className="mt-2 flex cursor-pointer items-center gap-3 font-medium">
				<input type="checkbox" className="toggle toggle-success" checked={enabled} disabled={pending} onChange={toggle} />
				{enabled ? 'Bot ligado' : 'Bot desligado'}
			</label>
		</div>
	)
}

function PhoneForms() {
	const [resumePhone, setResumePhone] = useState('')
	const [attendant, setAttendant] = useState({ phone: '', message: '' })
	const [tried, setTried] = useState(false)
	const errors = tried ? whatsappMessageProblems(attendant) : {}

	async function resumeOne(e: FormEvent) {
		e.preventDefault()
		if (!resumePhone.trim()) return
		if (await resume(resumePhone)) setResumePhone('')
	}
	async function simulate(e: FormEvent) {
		e.preventDefault()
		setTried(true)
		if (Object.keys(whatsappMessageProblems(attendant)).length > 0) return
		const done = await mutate(
			'POST /api/whatsapp/simulate-attendant-message',
			{ body: attendant },
			{
				success: {
					title: 'Mensagem de atendente simulada - bot pausado automaticamente',
					description: `Enviada para ${attendant.phone} pelo WhatsApp.`
				},
				errorTitle: 'Erro ao simular mensagem de atendente',
				invalidate: INVALIDATE
			}
		)
		if (done) {
			setAttendant({ phone: '', message: '' })
			setTried(false)
		}
	}

	return (
		<div className="grid gap-4 lg:grid-cols-2">
			<BotToolForm title="Retomar Conversa" icon={<Play className="size-5" aria-hidden="true" />} onSubmit={resumeOne}>
				<Field label="Telefone da conversa">
					<BotPhoneInput value={resumePhone} onChange={setResumePhone} />
				</Field>
				<div className="flex justify-end">
					<button type="submit" className="btn btn-primary" disabled={!resumePhone.trim()}>
						Retomar
					</button>
				</div>
			</BotToolForm>
			<BotToolForm title="Simular Mensagem de Atendente" icon={<UserRound className="size-5" aria-hidden="true" />} onSubmit={simulate}>
				<p className="text-sm text-base-content/70">
					Responda ao cliente pelo portal: o texto vai ao telefone pelo WhatsApp, como mensagem do atendente, e o bot fica pausado nessa
					conversa por 12 horas (ou até Retomar).
				</p>
				<WhatsappPhoneField
					label="Telefone do cliente"
					value={attendant.phone}
					onChange={(phone) => setAttendant({ ...attendant, phone })}
					error={errors.phone}
				/>
				<Field label="Mensagem do atendente" error={errors.message}>
					<input
						className="input w-full"
						value={attendant.message}
						onChange={(e) => setAttendant({ ...attendant, message: e.target.value })}
					/>
				</Field>
				<div className="flex justify-end">
					<button type="submit" className="btn" disabled={!attendant.phone.trim() || !attendant.message.trim()}>
						Enviar ao cliente
					</button>
				</div>
			</BotToolForm>
		</div>
	)
}

function Content() {
	const status = useStore($status)
	const paused = useStore($paused)
	const sessions = useStore($sessions)
	const now = new Date()
	if (status.error)
		return <ErrorPanel title="Erro ao carregar o bot" message={errorText(status.error)} onRetry={() => $status.revalidate()} />
	const byPhone = new Map((sessions.data ?? []).map((s) => [s.phone, s]))
	return (
		<div className="space-y-5">
			<StatGrid count={4}>
				{status.data && (
					<>
						<StatCard
							title="Status do Bot"
							value={status.data.enabled ? 'Ativo' : 'Inativo'}
							tone={status.data.enabled ? 'success' : 'error'}
							icon={<Power />}
						/>
						<StatCard title="Sessões Ativas" value={status.data.activeSessions} icon={<MessageSquare />} />
						<StatCard title="Conversas Pausadas" value={status.data.pausedConversations} tone="warning" icon={<PauseCircle />} />
						<Control enabled={status.data.enabled} />
					</>
				)}
			</StatGrid>
			<PhoneForms />
			<section className="space-y-3">
				<h3 className="text-lg font-semibold">Conversas pausadas</h3>
				{!!paused.data?.length && (
					<p className="text-sm text-base-content/70">Quem aguarda um atendente aparece primeiro, há mais tempo no topo.</p>
				)}
				{paused.data?.length === 0 && <EmptyState title="Nenhuma conversa pausada" hint="O bot está respondendo a todos." icon={<Bot />} />}
				<ul className="space-y-2" aria-label="Conversas pausadas">
					{paused.data?.map((phone) => {
						const session = byPhone.get(phone)
						return (
							<li key={phone} className="flex flex-wrap items-center gap-3 rounded-box border border-base-300 bg-base-100 p-3">
								<span className="font-mono">{formatSessionPhone(phone)}</span>
								{session && <WaitingFlag session={session} now={now} />}
								<button
									type="button"
									className="btn btn-sm ml-auto"
									onClick={() => resume(phone)}
									aria-label={`Retomar ${formatSessionPhone(phone)}`}
								>
									Retomar
								</button>
							</li>
						)
					})}
				</ul>
			</section>
			<section className="space-y-3">
				<h3 className="text-lg font-semibold">Sessões</h3>
				{sessions.data ? <SessionRows sessions={sessions.data} now={now} showPause /> : <div className="skeleton h-24 w-full" />}
			</section>
		</div>
	)
}

/** Admin Bot (3-billing-messaging §2): on/off, paused conversations, resume and the attendant simulation. */
export default function BotAdminPage() {
	return (
		<PageRoot>
			<Content />
		</PageRoot>
	)
}
