import type { ReactNode } from 'react'
import { AccessDenied } from '../../components/ui'

/**
 * A settings tab: the card everyone sees (`open`), then the administrators' cards, or for the others the
 * "Acesso Restrito" panel that says what is theirs alone.
 */
export function SettingsTab({
	open,
	isAdmin,
	denied,
	children
}: {
	open: ReactNode
	isAdmin: boolean
	denied: string
	children: ReactNode
}) {
	return (
		<div className="space-y-5">
			{open}
			{isAdmin ? children : <AccessDenied title="Acesso Restrito" message={denied} />}
		</div>
	)
}

/**
 * One card of the Segurança and Sistema tabs: its icon (sized and coloured by the caller), title and words, an
 * optional control beside them (`action`), then its content. `top` aligns the icon with the first line of long words.
 */
export function SettingsCard({
	icon,
	title,
	description,
	action,
	top = false,
	children
}: {
	icon: ReactNode
	title: string
	description?: string
	action?: ReactNode
	top?: boolean
	children: ReactNode
}) {
	const heading = (
		<div className={`flex ${top ? 'items-start' : 'items-center'} gap-3`}>
			{icon}
			{description ? (
				<div>
					<h3 className="text-lg font-semibold">{title}</h3>
					<p className="text-sm text-base-content/70">{description}</p>
				</div>
			) : (
				<h3 className="text-lg font-semibold">{title}</h3>
			)}
		</div>
	)
	const layout = top
		? 'flex flex-wrap items-start justify-between gap-2'
		: 'flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between'
	return (
		<section className="rounded-box border border-base-300 bg-base-100 p-4 sm:p-6">
			{action ? (
				<div className={layout}>
					{heading}
					{action}
				</div>
			) : (
				heading
			)}
			{children}
		</section>
	)
}
