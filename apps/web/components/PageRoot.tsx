import { useStore } from '@nanostores/react'
import type { ReactNode } from 'react'
import { applyPageFormats } from '../lib/page-data'
import { $confirm, answerConfirm } from '../stores/confirm'
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
						Cancelar
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
