import { useStore } from '@nanostores/react'
import { Eye, Send } from 'lucide-react'
import { map } from 'nanostores'
import { useEffect, useRef, useState } from 'react'
import { formatDateTime, maskPhone } from '../../../../modules/core'
import {
	NOTIFICATION_LABELS,
	NOTIFICATION_TYPES,
	type NotificationSample,
	type NotificationSetting,
	type NotificationType,
	TEMPLATE_VARIABLES,
	type TodaySends,
	templateProblem,
	renderTemplate,
	daysAheadProblem,
	sendTimeProblem
} from '../../../../modules/messaging/model'
import { ReadState } from '../../components/ReadState'
import { VariableButtons, WhatsAppText } from '../../components/WhatsAppText'
import { Pagination } from '../../components/Pagination'
import { EmptyState, ErrorPanel, Field } from '../../components/ui'
import { type ApiInput, type GetRoute, call, errorText } from '../../lib/api'
import { usePending } from '../../lib/hooks'
import { mutate } from '../../lib/mutate'
import { LIVE_PACE, invalidateReads, polling, routeStore } from '../../lib/query'
import { confirmAction } from '../../stores/confirm'
import { toast } from '../../stores/toast'

const $settings = routeStore('GET /api/notification-settings')
const $preview = routeStore('GET /api/notification-settings/preview')
// Read again while the screen is open: the scheduled run sends in the background.
const $today = routeStore('GET /api/notification-settings/hoje', undefined, polling(LIVE_PACE.notifications))
const $logQuery = map<{
	page: number
	limit: number
	tipo?: NotificationType
	status?: 'enviada' | 'falhou' | 'ignorada' | 'incerta' | 'pendente'
}>({
	page: 1,
	limit: 20
})
const $log = routeStore('GET /api/notification-settings/log', $logQuery)

const INVALIDATE: readonly GetRoute[] = [
	'GET /api/notification-settings',
	'GET /api/notification-settings/preview',
	'GET /api/notification-settings/hoje',
	'GET /api/notification-settings/log'
]
/** A big day can have thousands: the list shows the first ones and says how many in all. */
const PREVIEW_SHOWN = 100

const STATUS_LABEL: Record<string, string> = {
	pendente: 'Pendente',
	enviando: 'Enviando',
	enviada: 'Enviada',
	falhou: 'Falhou',
	incerta: 'Incerta',
	ignorada: 'Ignorada'
}
const STATUS_BADGE: Record<string, string> = {
	enviada: 'badge-success',
	falhou: 'badge-error',
	incerta: 'badge-warning',
	ignorada: 'badge-ghost',
	pendente: 'badge-info',
	enviando: 'badge-info'
}

/**
 * The companies the type tells today, with the values the server fills their message with (or its labelled example):
 * read again when the days or the switch change.
 */
function useSamples(setting: NotificationSetting | undefined): NotificationSample[] | null {
	const [samples, setSamples] = useState<NotificationSample[] | null>(null)
	const id = setting?.ativo ? setting.id : null
	useEffect(() => {
		if (id === null) return
		let live = true
		call('GET /api/notification-settings/:id/amostras', { params: { id: String(id) } })
			.then((rows) => live && setSamples(rows))
			.catch(() => live && setSamples([]))
		return () => {
			live = false
		}
	}, [id, setting?.dias_antecedencia])
	return samples
}

/** A checkbox saved as soon as it changes: it shows the new state at once, and goes back if the save fails. */
function SavedCheckbox({ saved, onSave, className }: { saved: boolean; onSave: (next: boolean) => Promise<unknown>; className: string }) {
	const [pending, setPending] = useState<boolean | null>(null)
	useEffect(() => {
		if (pending === saved) setPending(null)
	}, [saved, pending])
	return (
		<input
			type="checkbox"
			className={className}
			checked={pending ?? saved}
			onChange={async (e) => {
				const next = e.target.checked
				setPending(next)
				if (!(await onSave(next))) setPending(null)
			}}
		/>
	)
}

/** Each edit is saved at once (§3): the first switch-on creates the type with the defaults. */
function save(
	setting: NotificationSetting | undefined,
	tipo: NotificationType,
	patch: ApiInput<'PUT /api/notification-settings/:id'>['body']
) {
	return setting
		? mutate(
				'PUT /api/notification-settings/:id',
				{ params: { id: setting.id }, body: patch },
				{ success: { title: 'Configuração atualizada com sucesso!' }, errorTitle: 'Erro ao atualizar configuração', invalidate: INVALIDATE }
			)
		: mutate(
				'POST /api/notification-settings',
				{ body: { tipo, ...patch, ativo: patch.ativo ?? true } },
				{ success: { title: 'Configuração criada com sucesso!' }, errorTitle: 'Erro ao criar configuração', invalidate: INVALIDATE }
			)
}

function TypeCard({ tipo, setting }: { tipo: NotificationType; setting: NotificationSetting | undefined }) {
	const samples = useSamples(setting)
	const [template, setTemplate] = useState(setting?.template_mensagem ?? '')
	// The days and the time checked as they are left, in the API's words, beside their field (nothing sent when wrong).
	const [fieldError, setFieldError] = useState<{ dias?: string; horario?: string }>({})
	const [sample, setSample] = useState<number | null>(null)
	useEffect(() => setTemplate(setting?.template_mensagem ?? ''), [setting?.template_mensagem])
	const textarea = useRef<HTMLTextAreaElement>(null)
	const templateError = templateProblem(template)
	function saveTemplate(next: string) {
		const trimmed = next.trim()
		if (setting && !templateProblem(next) && trimmed !== setting.template_mensagem) save(setting, tipo, { template_mensagem: trimmed })
	}
	/** A variable goes where the cursor is (or replaces the selection) and is saved like any edit. */
	function insertVariable(name: string) {
		const start = textarea.current?.selectionStart ?? template.length
		const end = textarea.current?.selectionEnd ?? start
		const next = `${template.slice(0, start)}{{${name}}}${template.slice(end)}`
		setTemplate(next)
		saveTemplate(next)
	}
	// A company this type tells today (or the labelled example), so the days and date read true.
	const chosen = samples?.[sample ?? 0] ?? samples?.[0]
	const active = !!setting?.ativo
	return (
		<section className="rounded-box border border-base-300 bg-base-100 p-4 sm:p-5" aria-labelledby={`type-${tipo}`}>
			<label className="flex cursor-pointer items-center justify-between gap-3">
				<span id={`type-${tipo}`} className="font-semibold">
					{NOTIFICATION_LABELS[tipo]}
				</span>
				<SavedCheckbox className="toggle toggle-success" saved={active} onSave={(ativo) => save(setting, tipo, { ativo })} />
			</label>
			{active && setting && (
				<div className="mt-4 grid gap-4 md:grid-cols-2">
					<div className="grid grid-cols-2 gap-3 md:col-span-2 lg:grid-cols-3">
						{tipo === 'whatsapp_expirada' && (
							<p className="col-span-2 self-end pb-2 text-sm text-base-content/70 lg:col-span-1">
								Avisa uma vez cada licença no dia em que vence ou logo depois (vencidas há até 30 dias).
							</p>
						)}
						{tipo === 'whatsapp_expiracao' && (
							<Field label="Dias de antecedência" hint="De 1 a 30" error={fieldError.dias}>
								<input
									type="number"
									className="input w-full"
									min={1}
									max={30}
									defaultValue={setting.dias_antecedencia}
									onBlur={async (e) => {
										const input = e.target
										const problem = daysAheadProblem(input.value)
										setFieldError((f) => ({ ...f, dias: problem ?? undefined }))
										if (problem) return
										const value = Number(input.value)
										if (value === setting.dias_antecedencia) return
										if (!(await save(setting, tipo, { dias_antecedencia: value }))) input.value = String(setting.dias_antecedencia)
									}}
								/>
							</Field>
						)}
						<Field label="Horário de envio" error={fieldError.horario}>
							<input
								type="time"
								step={1}
								className="input w-full"
								defaultValue={setting.horario_envio}
								onBlur={async (e) => {
									const input = e.target
									const problem = sendTimeProblem(input.value)
									setFieldError((f) => ({ ...f, horario: problem ?? undefined }))
									if (problem || input.value === setting.horario_envio) return
									if (!(await save(setting, tipo, { horario_envio: input.value }))) input.value = setting.horario_envio
								}}
							/>
						</Field>
						<label className="flex cursor-pointer items-center gap-2 self-end pb-2 text-sm">
							<SavedCheckbox
								className="checkbox checkbox-sm"
								saved={setting.enviar_fins_semana}
								onSave={(enviar_fins_semana) => save(setting, tipo, { enviar_fins_semana })}
							/>
							Enviar nos fins de semana
						</label>
					</div>
					<Field label="Modelo da mensagem" error={templateError}>
						<textarea
							ref={textarea}
							className="textarea w-full font-mono text-sm"
							rows={10}
							maxLength={4000}
							value={template}
							onChange={(e) => setTemplate(e.target.value)}
							onBlur={() => saveTemplate(template)}
							aria-invalid={!!templateError}
						/>
					</Field>
					<div className="space-y-2">
						<VariableButtons variables={TEMPLATE_VARIABLES} onInsert={insertVariable} legend="Inserir variável no modelo" legendHidden />
						<Field label="Pré-visualização para a empresa">
							<select
								className="select select-sm w-full"
								value={samples && chosen ? samples.indexOf(chosen) : ''}
								onChange={(e) => setSample(Number(e.target.value))}
								disabled={!samples}
							>
								{samples?.map((s, i) => (
									<option key={s.empresa_codigo ?? 'exemplo'} value={i}>
										{s.empresa}
									</option>
								))}
							</select>
						</Field>
						{chosen?.exemplo && (
							<p className="text-xs text-base-content/70">
								Nenhuma empresa recebe este aviso hoje: a prévia usa uma empresa de exemplo, com a data e os dias que o aviso teria.
							</p>
						)}
						<div
							className="whitespace-pre-wrap rounded-box bg-[#dcf8c6] p-3 text-sm text-black"
							aria-live="polite"
							data-testid="message-preview"
						>
							{chosen ? <WhatsAppText text={renderTemplate(template, chosen.valores)} /> : 'Carregando a prévia…'}
						</div>
					</div>
				</div>
			)}
		</section>
	)
}

/** What went out today and when, and whether messages are going out now: the answer 'Enviar agora' is read against. */
function TodayStatus({ today }: { today: TodaySends | undefined }) {
	if (!today) return null
	return (
		<div className="mb-3 space-y-1 text-sm" role="status" data-testid="today-status">
			{today.em_andamento && (
				<p className="font-medium text-info">
					Enviando agora{today.a_enviar > 0 ? `: ${today.a_enviar} ${today.a_enviar === 1 ? 'mensagem falta' : 'mensagens faltam'}` : ''}…
				</p>
			)}
			{today.enviadas > 0 ? (
				<p>
					Hoje {today.enviadas === 1 ? 'já foi enviada 1 mensagem' : `já foram enviadas ${today.enviadas} mensagens`}; a última em{' '}
					{formatDateTime(today.ultimo_envio)}.
				</p>
			) : (
				!today.em_andamento && <p className="text-base-content/70">Nenhuma mensagem enviada hoje até agora.</p>
			)}
			{!today.em_andamento && today.a_enviar > 0 && (
				<p className="text-base-content/70">
					{today.a_enviar} {today.a_enviar === 1 ? 'mensagem aguarda' : 'mensagens aguardam'} nova tentativa.
				</p>
			)}
		</div>
	)
}

function TodayCard() {
	const today = useStore($today).data
	const [running, run] = usePending(async () => {
		try {
			const r = await call('POST /api/notification-settings/run', {})
			// Messages already going out (the scheduled run): said as such, never as an error.
			toast(
				r.em_andamento
					? {
							title: 'Envio em andamento',
							description: 'As mensagens de hoje já estão saindo. Acompanhe aqui e no registro de envios.',
							variant: 'info'
						}
					: {
							title: 'Envio concluído',
							description: `${r.enviadas} enviada(s), ${r.falhas} falha(s), ${r.ignoradas} ignorada(s).`,
							variant: 'success'
						}
			)
		} catch (error) {
			toast({ title: 'Erro ao enviar', description: errorText(error), variant: 'destructive' })
		}
		invalidateReads(INVALIDATE)
	})
	async function runNow() {
		const ok = await confirmAction({
			title: 'Enviar agora?',
			message: 'As notificações devidas hoje serão enviadas agora pelo WhatsApp. Quem já recebeu não recebe de novo.',
			confirmLabel: 'Enviar agora'
		})
		if (!ok) return
		await run()
	}
	return (
		<section className="rounded-box border border-base-300 bg-base-100 p-4 sm:p-5" aria-labelledby="today-title">
			<div className="mb-3 flex flex-wrap items-center justify-between gap-2">
				<h3 id="today-title" className="flex items-center gap-2 font-semibold">
					<Eye className="size-4" aria-hidden="true" />
					Envios de hoje
				</h3>
				<button type="button" className="btn btn-primary btn-sm" onClick={runNow} disabled={running}>
					{running ? <span className="loading loading-spinner loading-xs" /> : <Send className="size-4" aria-hidden="true" />}
					Enviar agora
				</button>
			</div>
			<TodayStatus today={today} />
			<ReadState
				store={$preview}
				errorTitle="Erro ao carregar a prévia"
				skeleton={<div className="skeleton h-16 w-full" />}
				empty={(data) =>
					data.length === 0 && (
						<p className="text-sm text-base-content/70">
							{today?.enviadas
								? 'Nada mais a enviar agora: as mensagens de hoje já saíram.'
								: 'Nada a enviar agora: nenhuma empresa a avisar, ou o horário de envio de hoje ainda não chegou.'}
						</p>
					)
				}
			>
				{(data) => (
					<>
						<p className="mb-2 text-sm text-base-content/70">
							{data.length} {data.length === 1 ? 'mensagem a enviar' : 'mensagens a enviar'}
							{data.length > PREVIEW_SHOWN && `; as primeiras ${PREVIEW_SHOWN} abaixo`}.
						</p>
						<ul className="max-h-80 divide-y divide-base-300 overflow-y-auto">
							{data.slice(0, PREVIEW_SHOWN).map((p) => (
								<li key={`${p.tipo}-${p.empresa_codigo}`} className="py-2 text-sm">
									<p className="font-medium">
										{p.empresa} · <span className="text-base-content/70">{NOTIFICATION_LABELS[p.tipo]}</span>
									</p>
									<p className="text-base-content/70">{p.telefone ? maskPhone(p.telefone) : p.motivo}</p>
								</li>
							))}
						</ul>
					</>
				)}
			</ReadState>
		</section>
	)
}

function LogCard() {
	const query = useStore($logQuery)
	return (
		<section className="rounded-box border border-base-300 bg-base-100 p-4 sm:p-5" aria-labelledby="log-title">
			<div className="mb-3 flex flex-wrap items-center justify-between gap-2">
				<h3 id="log-title" className="font-semibold">
					Registro de envios
				</h3>
				<div className="flex gap-2">
					<select
						className="select select-sm"
						aria-label="Filtrar por tipo"
						value={query.tipo ?? ''}
						onChange={(e) => $logQuery.set({ ...query, page: 1, tipo: (e.target.value || undefined) as NotificationType | undefined })}
					>
						<option value="">Todos os tipos</option>
						{NOTIFICATION_TYPES.map((t) => (
							<option key={t} value={t}>
								{NOTIFICATION_LABELS[t]}
							</option>
						))}
					</select>
					<select
						className="select select-sm"
						aria-label="Filtrar por status"
						value={query.status ?? ''}
						onChange={(e) => $logQuery.set({ ...query, page: 1, status: (e.target.value || undefined) as typeof query.status })}
					>
						<option value="">Todos os status</option>
						{['enviada', 'falhou', 'ignorada', 'incerta', 'pendente'].map((s) => (
							<option key={s} value={s}>
								{STATUS_LABEL[s]}
							</option>
						))}
					</select>
				</div>
			</div>
			<ReadState
				store={$log}
				errorTitle="Erro ao carregar o registro"
				skeleton={<div className="skeleton h-24 w-full" />}
				empty={(data) =>
					data.entries.length === 0 && <EmptyState title="Nenhum envio registrado" hint="Os envios automáticos aparecem aqui." />
				}
			>
				{(data) => (
					<>
						<ul className="divide-y divide-base-300">
							{data.entries.map((e) => (
								<li key={e.id} className="flex flex-wrap items-center gap-x-3 gap-y-1 py-2 text-sm">
									<span className={`badge badge-sm badge-soft ${STATUS_BADGE[e.status]}`}>{STATUS_LABEL[e.status]}</span>
									<span className="font-medium" data-testid="log-company">
										{e.empresa ?? `Empresa ${e.empresa_codigo}`}
									</span>
									<span className="text-base-content/70">{NOTIFICATION_LABELS[e.tipo as NotificationType] ?? e.tipo}</span>
									<span className="text-base-content/70">{e.telefone ? maskPhone(e.telefone) : '—'}</span>
									<span className="ml-auto text-xs text-base-content/70">{formatDateTime(e.enviado_em ?? e.criado_em)}</span>
									{e.erro && <span className="w-full text-xs text-base-content/70">{e.erro}</span>}
								</li>
							))}
						</ul>
						<Pagination
							info={data.pagination}
							noun="envios"
							onPage={(page) => $logQuery.setKey('page', page)}
							onPageSize={(limit) => $logQuery.set({ ...query, page: 1, limit })}
						/>
					</>
				)}
			</ReadState>
		</section>
	)
}

/** Notificações tab (3-billing-messaging §2): the three automatic types, today's sends and the log. */
export function NotificationTypes() {
	const { data, loading, error } = useStore($settings)
	if (error) return <ErrorPanel title="Erro ao carregar configurações" message={errorText(error)} onRetry={() => $settings.revalidate()} />
	if (loading || !data) return <div className="skeleton h-64 w-full" role="status" aria-busy="true" aria-label="Carregando" />
	return (
		<div className="space-y-4">
			{NOTIFICATION_TYPES.map((tipo) => (
				<TypeCard key={tipo} tipo={tipo} setting={data.find((s) => s.tipo === tipo)} />
			))}
			<TodayCard />
			<LogCard />
		</div>
	)
}
