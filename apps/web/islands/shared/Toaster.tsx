import { useStore } from '@nanostores/react'
import { useEffect, useRef, useState } from 'react'
import { createPortal } from 'react-dom'
import { $toast, dismissToast, showFlashedToast, type ToastVariant } from '../../stores/toast'

const VARIANT_CLASS: Record<ToastVariant, string> = {
	default: 'border-base-300 bg-base-100 text-base-content',
	success: 'border-success/40 bg-base-100 text-base-content [&_.toast-bar]:bg-success',
	destructive: 'border-error bg-error text-error-content',
	warning: 'border-warning/50 bg-base-100 text-base-content [&_.toast-bar]:bg-warning',
	info: 'border-info/40 bg-base-100 text-base-content [&_.toast-bar]:bg-info'
}
const SWIPE_THRESHOLD = 50

/**
 * The open modal dialog, if any. A modal <dialog> sits in the browser's top layer, above every z-index, and
 * makes the rest of the page inert: a toast about what the dialog just did must be rendered inside it.
 */
function useOpenModal(): HTMLDialogElement | null {
	const [modal, setModal] = useState<HTMLDialogElement | null>(null)
	useEffect(() => {
		const update = () => {
			const open = document.querySelectorAll<HTMLDialogElement>('dialog:modal')
			setModal(open.length > 0 ? open[open.length - 1] : null)
		}
		update()
		const observer = new MutationObserver(update)
		// A dialog closes either by losing `open` or by leaving the page with the component that rendered it.
		observer.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['open'] })
		return () => observer.disconnect()
	}, [])
	return modal
}

/** The one toast region (1-core §9): one toast at a time, 5 s by default, swipe right to close, F8 to focus. */
export default function Toaster() {
	const toast = useStore($toast)
	const region = useRef<HTMLOListElement>(null)
	const [dragX, setDragX] = useState(0)
	const start = useRef<number | null>(null)
	const modal = useOpenModal()

	useEffect(() => {
		showFlashedToast()
		const onKey = (e: KeyboardEvent) => {
			if (e.key === 'F8') {
				e.preventDefault()
				region.current?.focus()
			}
		}
		window.addEventListener('keydown', onKey)
		return () => window.removeEventListener('keydown', onKey)
	}, [])

	useEffect(() => {
		setDragX(0)
		if (!toast) return
		const timer = setTimeout(dismissToast, toast.duration)
		return () => clearTimeout(timer)
	}, [toast])

	const onPointerDown = (e: React.PointerEvent) => {
		start.current = e.clientX
	}
	const onPointerMove = (e: React.PointerEvent) => {
		if (start.current !== null) setDragX(Math.max(0, e.clientX - start.current))
	}
	const onPointerUp = () => {
		if (dragX > SWIPE_THRESHOLD) dismissToast()
		else setDragX(0)
		start.current = null
	}

	const list = (
		<ol
			ref={region}
			tabIndex={-1}
			aria-label="Notificações (F8)"
			// Over a dialog (a bottom sheet on phones) the toast goes to the top, clear of the dialog's buttons.
			className={`fixed right-4 left-4 z-[100] flex flex-col items-end outline-none sm:left-auto sm:w-96 ${modal ? 'top-4 sm:top-auto sm:bottom-4' : 'bottom-4'}`}
		>
			{toast && (
				<li
					key={toast.id}
					role={toast.variant === 'destructive' ? 'alert' : 'status'}
					aria-live={toast.variant === 'destructive' ? 'assertive' : 'polite'}
					className={`relative w-full touch-pan-y select-none overflow-hidden rounded-box border p-4 pr-10 shadow-lg transition-transform ${VARIANT_CLASS[toast.variant]}`}
					style={{ transform: `translateX(${dragX}px)`, opacity: dragX ? 1 - dragX / 300 : 1 }}
					onPointerDown={onPointerDown}
					onPointerMove={onPointerMove}
					onPointerUp={onPointerUp}
					onPointerCancel={onPointerUp}
				>
					<span className="toast-bar absolute inset-y-0 left-0 w-1" aria-hidden="true" />
					<p className="font-semibold">{toast.title}</p>
					{toast.description && <p className="mt-1 text-sm opacity-90">{toast.description}</p>}
					<button
						type="button"
						className="btn btn-ghost btn-xs btn-circle absolute right-2 top-2"
						aria-label="Fechar notificação"
						onClick={dismissToast}
					>
						✕
					</button>
				</li>
			)}
		</ol>
	)
	return modal ? createPortal(list, modal) : list
}
