import { useStore } from '@nanostores/react'
import { Bell, CheckCheck, Download, Moon, RefreshCw, Smartphone, Sun, X } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { formatRelative } from '../../../../modules/core'
import { ErrorBoundary } from '../../components/ErrorFallback'
import { useHydrated } from '../../lib/hooks'
import { $deadline, renewSession, startInactivityTimer } from '../../stores/inactivity'
import { $installCardVisible, $installEvent, dismissInstallCard, installApp, listenForInstallPrompt } from '../../stores/install'
import { $notifications, markAllRead } from '../../stores/notifications'
import { watchSession } from '../../stores/session'
import { toggleTheme } from '../../stores/theme'
import { toast } from '../../stores/toast'

function useNow(intervalMs: number) {
	const [now, setNow] = useState<number | null>(null)
	useEffect(() => {
		setNow(Date.now())
		const id = setInterval(() => setNow(Date.now()), intervalMs)
		return () => clearInterval(id)
	}, [intervalMs])
	return now
}

function ThemeToggle() {
	const hydrated = useHydrated()
	return (
		<button
			type="button"
			className="btn btn-ghost btn-sm btn-circle"
			aria-label="Alternar tema claro/escuro"
			onClick={toggleTheme}
			disabled={!hydrated}
		>
			<Moon className="size-5 dark:hidden" aria-hidden="true" />
			<Sun className="hidden size-5 dark:block" aria-hidden="true" />
		</button>
	)
}

/** Time left before the automatic logout: green, yellow at 10 minutes or less, red at 5 or less. */
function SessionCountdown() {
	const deadline = useStore($deadline)
	const now = useNow(1_000)
	if (now === null || deadline === null) return null
	const left = Math.max(0, deadline - now)
	const minutes = Math.floor(left / 60_000)
	const seconds = Math.floor((left % 60_000) / 1000)
	const tone = left <= 5 * 60_000 ? 'text-error' : left <= 10 * 60_000 ? 'text-warning' : 'text-success'
	return (
		<div className="flex items-center gap-1 rounded-field bg-base-200 px-2 py-1" data-testid="session-countdown">
			<span
				className={`font-mono text-sm font-semibold tabular-nums ${tone}`}
				role="timer"
				aria-label={`Sessão expira em ${minutes} minutos`}
			>
				{String(minutes).padStart(2, '0')}:{String(seconds).padStart(2, '0')}
			</span>
			<button
				type="button"
				className="btn btn-ghost btn-xs btn-circle"
				aria-label="Renovar sessão"
				title="Renovar sessão"
				onClick={() => {
					renewSession()
					toast({ title: 'Sessão renovada', variant: 'success', duration: 2_000 })
				}}
			>
				<RefreshCw className="size-3.5" />
			</button>
		</div>
	)
}

function Notifications() {
	const hydrated = useHydrated()
	const { data, loading, error } = useStore($notifications)
	const dialog = useRef<HTMLDialogElement>(null)
	const now = useNow(60_000)
	const unread = (data ?? []).filter((n) => !n.read).length

	useEffect(() => {
		if (error) toast({ title: 'Erro ao acessar notificações', variant: 'destructive' })
	}, [error])

	return (
		<>
			<button
				type="button"
				className="btn btn-ghost btn-sm btn-circle indicator"
				aria-label={unread ? `Notificações (${unread} não lidas)` : 'Notificações'}
				onClick={() => dialog.current?.showModal()}
				disabled={!hydrated}
			>
				{unread > 0 && (
					<span className="badge indicator-item badge-error badge-xs" aria-hidden="true">
						{unread}
					</span>
				)}
				<Bell className="size-5" />
			</button>
			<dialog ref={dialog} className="modal modal-bottom sm:modal-middle" aria-labelledby="notifications-title">
				<div className="modal-box">
					<div className="mb-3 flex items-center justify-between gap-2">
						<h3 id="notifications-title" className="text-lg font-bold">
							Notificações
						</h3>
						<button type="button" className="btn btn-ghost btn-sm" onClick={markAllRead}>
							<CheckCheck className="size-4" /> Marcar todas como lidas
						</button>
					</div>
					{loading && !data && <div className="skeleton h-16 w-full" />}
					{data && data.length === 0 && <p className="py-6 text-center text-base-content/70">Nenhuma notificação por enquanto.</p>}
					<ul className="max-h-96 space-y-2 overflow-y-auto">
						{(data ?? []).map((n) => (
							<li
								key={n.id}
								className={`rounded-field border p-3 ${n.read ? 'border-base-300 opacity-70' : 'border-primary/30 bg-base-200'}`}
							>
								<div className="flex items-start justify-between gap-2">
									<p className={`font-medium ${n.type === 'success' ? 'text-success' : n.type === 'warning' ? 'text-warning' : ''}`}>
										{n.title}
									</p>
									<span className="shrink-0 text-xs text-base-content/70">{now ? formatRelative(n.created_at, new Date(now)) : ''}</span>
								</div>
								<p className="mt-1 text-sm">{n.message}</p>
							</li>
						))}
					</ul>
					<div className="modal-action">
						<form method="dialog">
							<button type="submit" className="btn">
								Fechar
							</button>
						</form>
					</div>
				</div>
				<form method="dialog" className="modal-backdrop">
					<button type="submit" aria-label="Fechar">
						fechar
					</button>
				</form>
			</dialog>
		</>
	)
}

function InstallButton() {
	const event = useStore($installEvent)
	if (!event) return null
	return (
		<button
			type="button"
			className="btn btn-ghost btn-sm btn-circle"
			aria-label="Instalar aplicativo"
			title="Instalar aplicativo"
			onClick={installApp}
		>
			<Download className="size-5" />
		</button>
	)
}

/**
 * The install-app card (1-core §2.3). Rendered into <body>: inside the top bar, whose backdrop blur makes it the
 * containing block of anything fixed, it sat above the screen on phones and over the bar on desktops (issue 14).
 */
function InstallCard() {
	const visible = useStore($installCardVisible)
	if (!visible) return null
	return createPortal(
		<div
			role="dialog"
			aria-label="Instalar aplicativo"
			className="fixed inset-x-4 bottom-4 z-40 rounded-box border border-base-300 bg-base-100 p-4 shadow-xl sm:left-auto sm:w-80"
		>
			<div className="flex items-start gap-3">
				<Smartphone className="mt-0.5 size-6 shrink-0 text-primary" aria-hidden="true" />
				<div className="grow">
					{/* Short words: on a phone the card arrives 2 s in, and three lines of it outweighed the screen's own
					    heading as the largest paint (LCP 3.4 s on the dashboard, issue 15). */}
					<p className="font-semibold">Instale o portal</p>
					<p className="text-xs text-base-content/70">Abra direto da tela inicial.</p>
					<div className="mt-3 flex gap-2">
						<button type="button" className="btn btn-primary btn-sm" onClick={installApp}>
							Instalar
						</button>
						<button type="button" className="btn btn-ghost btn-sm" onClick={dismissInstallCard}>
							Agora não
						</button>
					</div>
				</div>
				<button type="button" className="btn btn-ghost btn-xs btn-circle" aria-label="Fechar" onClick={dismissInstallCard}>
					<X className="size-4" />
				</button>
			</div>
		</div>,
		document.body
	)
}

/** The interactive part of the top bar, and the session's inactivity timer behind it. */
export default function ShellControls() {
	useEffect(() => {
		const stopTimer = startInactivityTimer()
		const stopInstall = listenForInstallPrompt()
		const stopWatch = watchSession()
		// The top bar's controls answer from now on (the browser tests wait for this before using them).
		document.documentElement.dataset.controlsReady = ''
		return () => {
			stopTimer()
			stopInstall()
			stopWatch()
		}
	}, [])

	return (
		<ErrorBoundary>
			<div className="flex items-center gap-1">
				<SessionCountdown />
				<InstallButton />
				<ThemeToggle />
				<Notifications />
			</div>
			<InstallCard />
		</ErrorBoundary>
	)
}
