import { Send } from 'lucide-react'
import { useState } from 'react'
import { CARNE_MESSAGES, whatsappPhoneField } from '../../../../modules/billing/model'
import { Modal, ModalActions } from '../../components/Modal'
import { Field } from '../../components/ui'
import { fieldErrors } from '../../lib/form'

/**
 * The phone dialog of a WhatsApp send (mounted while open, see LazyDialog): a summary, the phone (55 + DDD + number),
 * send disabled while blank; it closes when `onSend` answers (mutate's result), and stays open on a failure.
 */
export default function WhatsappDialog({
	title,
	summary,
	hint,
	onClose,
	onSend
}: {
	title: string
	summary: React.ReactNode
	hint: string
	onClose: () => void
	onSend: (phone: string) => Promise<unknown>
}) {
	const [phone, setPhone] = useState('')
	const [tried, setTried] = useState(false)
	const [pending, setPending] = useState(false)
	const error = tried ? fieldErrors(whatsappPhoneField, phone)._form : undefined
	async function send(e: React.FormEvent) {
		e.preventDefault()
		setTried(true)
		if (fieldErrors(whatsappPhoneField, phone)._form) return
		setPending(true)
		// As typed: the server reads the digits and refuses a letter instead of dropping it.
		const sent = await onSend(phone)
		setPending(false)
		if (sent) onClose()
	}
	return (
		<Modal
			open
			onClose={onClose}
			title={title}
			footer={
				<ModalActions
					onCancel={onClose}
					form="whatsapp-form"
					pending={pending}
					disabled={phone.trim() === ''}
					label="Enviar"
					icon={<Send className="size-4" aria-hidden="true" />}
				/>
			}
		>
			<form id="whatsapp-form" className="space-y-4" onSubmit={send} noValidate>
				<div className="rounded-box bg-base-200 p-3 text-sm">{summary}</div>
				<Field label="Telefone (WhatsApp)" error={error} hint={hint}>
					<input
						className="input w-full"
						inputMode="numeric"
						autoComplete="tel"
						placeholder="5585999999999"
						value={phone}
						onChange={(e) => setPhone(e.target.value)}
					/>
				</Field>
				<p className="sr-only">{CARNE_MESSAGES.phone}</p>
			</form>
		</Modal>
	)
}
