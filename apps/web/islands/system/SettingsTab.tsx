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
