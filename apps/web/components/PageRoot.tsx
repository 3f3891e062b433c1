import { useStore } from '@nanostores/react'
import type { ReactNode } from 'react'
import type { Role } from '../../../modules/core'
import { applyPageFormats } from '../lib/page-data'
import { $confirm, answerConfirm } from '../stores/confirm'
import { $user } from '../stores/session'
import { ErrorBoundary } from './ErrorFallback'
import { Modal } from './Modal'

function ConfirmHost() {
	const request = useStore($confirm)
	return (
		<Modal
			open={request !== null}
			onClose={() => answerConfirm(false)}
			title={request?.title ?? ''}
			footer={
				<>
					<button type="button" className="btn" onClick={() => answerConfirm(false)}>
						{request?.cancelLabel ?? 'Cancelar'}
					</button>
					<button type="button" className={`btn ${request?.destructive ? 'btn-error' : 'btn-primary'}`} onClick={() => answerConfirm(true)}>
						{request?.confirmLabel ?? 'Confirmar'}
					</button>
				</>
			}
		>
			<p className="whitespace-pre-line">{request?.message}</p>
		</Modal>
	)
}

/** Wraps every page island: the settings' display formats, the error fallback of 1-core §2.6 and the confirmation dialog. */
export function PageRoot({ children }: { children: ReactNode }) {
	applyPageFormats()
	return (
		<ErrorBoundary>
			{children}
			<ConfirmHost />
		</ErrorBoundary>
	)
}

/** A page island's root: PageRoot around what the signed-in user's role sees there. */
export function RolePage({ children }: { children: (role: Role | undefined) => ReactNode }) {
	const user = useStore($user)
	return <PageRoot>{children(user?.tipo)}</PageRoot>
}
