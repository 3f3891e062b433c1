import { type ReactNode, useEffect, useId, useRef } from 'react'
import type { FormHandle } from '../lib/form'
import { FormError } from './ui'

interface ModalProps {
	open: boolean
	onClose: () => void
	title: string
	children: ReactNode
	/** Buttons of the dialog (cancel, save...). */
	footer?: ReactNode
	size?: 'md' | 'lg'
}

/**
 * The one dialog of the portal: a native <dialog> (focus trap, Esc to close), a bottom sheet on
 * phones and centred on larger screens.
 */
export function Modal({ open, onClose, title, children, footer, size = 'md' }: ModalProps) {
	const ref = useRef<HTMLDialogElement>(null)
	const titleId = useId()
	useEffect(() => {
		const dialog = ref.current
		if (!dialog) return
		if (open && !dialog.open) dialog.showModal()
		if (!open && dialog.open) dialog.close()
	}, [open])

	return (
		<dialog ref={ref} className="modal modal-bottom sm:modal-middle" aria-labelledby={titleId} onClose={onClose}>
			<div className={`modal-box max-h-[90dvh] ${size === 'lg' ? 'sm:max-w-3xl' : 'sm:max-w-lg'}`}>
				<h3 id={titleId} className="mb-4 text-lg font-bold">
					{title}
				</h3>
				{open && children}
				{footer && <div className="modal-action flex-wrap">{footer}</div>}
			</div>
			<form method="dialog" className="modal-backdrop">
				<button type="submit" aria-label="Fechar" tabIndex={-1}>
					fechar
				</button>
			</form>
		</dialog>
	)
}

interface ModalActionsProps {
	/** The Cancelar button. */
	onCancel: () => void
	/** Text of the primary button. */
	label: ReactNode
	/** Id of the <form> the primary button submits (none: the enclosing form). */
	form?: string
	/** With it, the primary button is a plain button that calls it instead of submitting. */
	onConfirm?: () => void
	/** Shows a spinner (in place of `icon`) and disables the primary button. */
	pending?: boolean
	disabled?: boolean
	icon?: ReactNode
	/** Extra buttons placed before Cancelar (e.g. a destructive action with `mr-auto`). */
	children?: ReactNode
}

/** The actions of every form dialog (and inline edit form): [extra…] Cancelar + primary button (spinner while pending). */
export function ModalActions({ onCancel, label, form, onConfirm, pending = false, disabled = false, icon, children }: ModalActionsProps) {
	return (
		<>
			{children}
			<button type="button" className="btn" onClick={onCancel}>
				Cancelar
			</button>
			<button
				type={onConfirm ? 'button' : 'submit'}
				form={form}
				className="btn btn-primary"
				disabled={pending || disabled}
				onClick={onConfirm}
			>
				{pending ? <span className="loading loading-spinner loading-sm" /> : icon}
				{label}
			</button>
		</>
	)
}

/**
 * The one form dialog: the Modal, a form checked by the form hook (lib/form.ts) on submit, its fields (children),
 * a message about the whole form under them, and Cancelar + the submit button (spinner while pending). `send`
 * writes the checked input; a truthy answer (mutate's result) closes the dialog, a failure leaves it open.
 */
export function FormDialog<I>({
	title,
	form,
	send,
	onClose,
	submitLabel,
	submitIcon,
	disabled,
	size,
	className = 'space-y-4',
	children
}: {
	title: string
	form: FormHandle<I>
	send: (input: I) => Promise<unknown>
	onClose: () => void
	submitLabel: ReactNode
	submitIcon?: ReactNode
	disabled?: boolean
	size?: ModalProps['size']
	/** The layout of the fields: stacked, or e.g. `grid gap-4 sm:grid-cols-2`. */
	className?: string
	children: ReactNode
}) {
	const formId = useId()
	const submit = form.submit(async (input) => {
		if (await send(input)) onClose()
	})
	return (
		<Modal
			open
			onClose={onClose}
			title={title}
			size={size}
			footer={
				<ModalActions onCancel={onClose} form={formId} pending={form.pending} disabled={disabled} icon={submitIcon} label={submitLabel} />
			}
		>
			<form id={formId} className={className} onSubmit={submit} noValidate>
				{children}
				<FormError message={form.errors._form} />
			</form>
		</Modal>
	)
}
