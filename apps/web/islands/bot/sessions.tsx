import type { FormEvent, ReactNode } from 'react'
import { type BotSession, BOT_STEP_LABELS, botRelativeTime, formatSessionPhone } from '../../../../modules/bot/model'
import { formatCnpj } from '../../../../modules/core'
import { type Column, Rows } from '../../components/Rows'
import { EmptyState } from '../../components/ui'

/** One of the bot screens' small tool forms (resume, simulate, test): a card with an icon heading. */
export function BotToolForm({
	title,
	icon,
	onSubmit,
	children
}: {
	title: string
	icon: ReactNode
	onSubmit: (e: FormEvent) => void
	children: ReactNode
}) {
	return (
		<form className="space-y-3 rounded-box border border-base-300 bg-base-100 p-4 sm:p-5" onSubmit={onSubmit} noValidate>
			<h3 className="flex items-center gap-2 text-lg font-semibold">
				{icon} {title}
			</h3>
			{children}
		</form>
	)
}

/** A WhatsApp number typed by hand (digits with the country code, as the bot keys its conversations). */
export function BotPhoneInput({ value, onChange }: { value: string; onChange: (value: string) => void }) {
	return (
		<input className="input w-full" inputMode="tel" value={value} onChange={(e) => onChange(e.target.value)} placeholder="5585999999999" />
	)
}

export function StepBadge({ step }: { step: BotSession['step'] }) {
	const tone = step === 'generating_boleto' ? 'badge-accent' : step === 'menu' || step === 'consulting' ? 'badge-info' : 'badge-ghost'
	return <span className={`badge badge-soft badge-sm ${tone}`}>{BOT_STEP_LABELS[step]}</span>
}

/** A client waiting for a person (asked for one, or wrote while paused): how long, in red past 15 minutes. */
export function WaitingFlag({ session, now }: { session: BotSession; now: Date }) {
	if (!session.waitingSince) return null
	const since = botRelativeTime(session.waitingSince, now)
	return (
		<span className={`badge badge-sm h-auto py-0.5 ${session.waitingTooLong ? 'badge-error' : 'badge-warning'}`}>
			{since === 'Agora' ? 'Aguardando atendente agora' : `Aguardando há ${since.replace(' atrás', '')}`}
		</span>
	)
}

/** The sessions list of both bot screens: phone, CNPJ, step, pause and last activity ('Agora', 'Nmin atrás'…). */
export function SessionRows({
	sessions,
	now,
	showPause,
	actions
}: {
	sessions: BotSession[]
	now: Date
	showPause?: boolean
	actions?: (s: BotSession) => ReactNode
}) {
	if (sessions.length === 0) return <EmptyState title="Nenhuma sessão ativa" hint="As conversas dos últimos 30 minutos aparecem aqui." />
	const columns: Column<BotSession>[] = [
		{ key: 'phone', header: 'Telefone', cell: (s) => <span className="font-mono">{formatSessionPhone(s.phone)}</span>, hideOnCard: true },
		{ key: 'cnpj', header: 'CNPJ', cell: (s) => (s.cnpj ? formatCnpj(s.cnpj) : '—') },
		{
			key: 'step',
			header: 'Etapa',
			cell: (s) => (
				<span className="flex flex-wrap gap-1">
					{showPause && s.isPaused && <span className="badge badge-warning badge-sm">Pausada</span>}
					<StepBadge step={s.step} />
					<WaitingFlag session={s} now={now} />
				</span>
			)
		},
		{ key: 'last', header: 'Última atividade', cell: (s) => botRelativeTime(s.lastActivity, now) }
	]
	return (
		<Rows
			rows={sessions}
			columns={columns}
			rowKey={(s) => s.phone}
			caption="Sessões do bot"
			cardTitle={(s) => <span className="font-mono">{formatSessionPhone(s.phone)}</span>}
			actions={actions}
		/>
	)
}
